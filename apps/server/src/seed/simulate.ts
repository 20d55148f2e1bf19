import type { SeedApi } from './api-client';
import type { Backdater } from './backdate';
import { hourWeights, products, weekdayWeights } from './catalogue';
import type { Random } from './random';
import type { SeedPosKey } from './seed';

const DAY = 86_400_000;
const MINUTE = 60_000;

export interface Customer {
  accountId: string;
  cardNumber: string;
  since: Date;
}

interface PastAccrual {
  operationId: string;
  posKey: string;
  skus: string[];
}

interface Story {
  api: SeedApi;
  random: Random;
  backdate: Backdater;
  posKeys: SeedPosKey[];
  /** A till's operation id, dated the day it happens: `op-20261109-000123`. */
  nextId: (t: number) => string;
  recentAccruals: PastAccrual[];
  stats: {
    history: number;
    purchases: number;
    redemptions: number;
    returns: number;
    manual: number;
    openHolds: number;
  };
}

function yyyymmdd(t: number) {
  return new Date(t).toISOString().slice(0, 10).replaceAll('-', '');
}

/** How unevenly purchases fall on customers: > 1 favours the regulars, yet most people shop now and then. */
const LOYALTY_SKEW = 1.5;

/** Day by day, hour by hour: purchases earn points, some are redeemed, a few returned. */
export async function simulateDays(
  api: SeedApi,
  random: Random,
  backdate: Backdater,
  customers: Customer[],
  posKeys: SeedPosKey[],
  options: { days: number; purchasesPerDay: number; seed: number },
  now: number,
) {
  let counter = 0;
  const story: Story = {
    api,
    random,
    backdate,
    posKeys,
    nextId: (t) => `op-${yyyymmdd(t)}-${String(++counter).padStart(6, '0')}`,
    recentAccruals: [],
    stats: { history: 0, purchases: 0, redemptions: 0, returns: 0, manual: 0, openHolds: 0 },
  };
  const today = Math.floor(now / DAY) * DAY;
  await earlierPurchases(story, customers, today - (options.days - 1) * DAY, now);
  story.recentAccruals = []; // returns in the month are of the month's purchases
  for (let d = options.days - 1; d >= 0; d--) {
    const dayStart = today - d * DAY;
    const weekday = new Date(dayStart).getUTCDay();
    const count = Math.round(
      options.purchasesPerDay * (weekdayWeights[weekday] ?? 1) * (0.85 + random.next() * 0.3),
    );
    const times = Array.from(
      { length: count },
      () =>
        dayStart +
        random.weighted(hourWeights) * 3_600_000 +
        random.int(0, 59) * MINUTE +
        random.int(0, 59_999),
    )
      .filter((t) => t < now - 10 * MINUTE)
      .sort((a, b) => a - b);
    for (const t of times) {
      const eligible = countJoinedBefore(customers, t);
      if (eligible === 0) continue;
      const customer = customers[random.skewed(eligible, LOYALTY_SKEW)] as Customer;
      if (await purchase(story, customer, t)) story.stats.purchases++;
      if (random.chance(0.13)) await redeem(story, customer, t + random.int(1, 3) * MINUTE);
      if (random.chance(0.025)) await returnSomething(story, t + random.int(4, 9) * MINUTE);
      if (random.chance(0.005)) await goodwill(story, customer, t + MINUTE);
    }
  }
  await openHolds(story, customers, now);
  return story.stats;
}

/**
 * Most people join at the till while buying: every customer's first purchase comes with the card. Those
 * who joined before the simulated month often came back before it too, so accounts carry a balance into
 * the month as in a programme that has been running.
 */
async function earlierPurchases(story: Story, customers: Customer[], monthStart: number, now: number) {
  const { random } = story;
  for (const customer of customers) {
    const since = customer.since.getTime();
    const signUp = since + random.int(1, 6) * MINUTE;
    if (signUp < now - 10 * MINUTE && (await purchase(story, customer, signUp))) story.stats.history++;
    if (since >= monthStart - DAY || !random.chance(0.6)) continue;
    const day = Math.floor((since + DAY + random.next() * (monthStart - since - 2 * DAY)) / DAY) * DAY;
    const t = day + random.weighted(hourWeights) * 3_600_000 + random.int(0, 3_599_999);
    if (await purchase(story, customer, t)) story.stats.history++;
  }
}

/** Orders waiting for pick-up right now: points reserved by a hold that is neither captured nor released. */
async function openHolds(story: Story, customers: Customer[], now: number) {
  const { api, random } = story;
  const wanted = Math.max(5, Math.round(customers.length / 25));
  const asked = new Set<Customer>();
  // Each customer is asked once, regulars first (they have the points to spend), until enough holds are open
  // or everyone was asked: a small story (few days, few points each) still gets its holds.
  for (let tries = 0; story.stats.openHolds < wanted && asked.size < customers.length; tries++) {
    const pick = customers[random.skewed(customers.length, 3)] as Customer;
    const customer = tries < wanted * 4 ? pick : (customers.find((c) => !asked.has(c)) as Customer);
    if (asked.has(customer)) continue;
    asked.add(customer);
    const t = now - random.int(2, 40) * MINUTE;
    const posKey = pickPos(story, t);
    const card = await api.pos(posKey, 'GET', `/pos/api/v1/cards/${customer.cardNumber}`);
    const available = Math.floor(Number((card.body as { availableBalance?: number }).availableBalance ?? 0));
    if (available < 5) continue;
    const points = Math.max(5, Math.floor(available * (0.3 + random.next() * 0.5)));
    const operationId = story.nextId(t);
    const hold = await api.pos(posKey, 'POST', '/pos/api/v1/holds', {
      operationId,
      cardNumber: customer.cardNumber,
      points,
    });
    story.backdate.posOperation(operationId, new Date(t));
    if (hold.status === 201) story.stats.openHolds++;
  }
}

function countJoinedBefore(customers: Customer[], t: number) {
  let lo = 0;
  let hi = customers.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((customers[mid] as Customer).since.getTime() < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A till that was already connected at `t`. */
function pickPos(story: Story, t: number) {
  const open = story.posKeys.filter((p) => p.since <= t);
  const tills = open.length > 0 ? open : story.posKeys.slice(0, 1);
  return (tills[story.random.weighted(tills.map((p) => p.weight))] as SeedPosKey).key;
}

async function purchase(story: Story, customer: Customer, t: number): Promise<boolean> {
  const { random } = story;
  const lines = random.int(1, 6);
  const items = Array.from({ length: lines }, () => {
    const product = random.pick(products);
    const quantity = random.chance(0.8) ? 1 : random.int(2, 4);
    // Money in whole cents: a 10 % discount rounded to the cent.
    const discount = random.chance(0.15) ? Math.round(product.price * quantity * 10) / 100 : 0;
    return { sku: product.sku, category: product.category, quantity, price: product.price, discount };
  });
  const posKey = pickPos(story, t);
  const operationId = story.nextId(t);
  // The receipt carries the same date and number as the till's operation id.
  const receiptId = `R-${operationId.slice(3)}`;
  const res = await story.api.pos(posKey, 'POST', '/pos/api/v1/accruals', {
    operationId,
    cardNumber: customer.cardNumber,
    receipt: { receiptId, items },
  });
  story.backdate.posOperation(operationId, new Date(t));
  if (res.status !== 201) return false;
  story.recentAccruals.push({ operationId, posKey, skus: items.map((i) => i.sku) });
  if (story.recentAccruals.length > 400) story.recentAccruals.shift();
  return true;
}

async function redeem(story: Story, customer: Customer, t: number) {
  const { api, random } = story;
  const posKey = pickPos(story, t);
  const card = await api.pos(posKey, 'GET', `/pos/api/v1/cards/${customer.cardNumber}`);
  const available = Number((card.body as { availableBalance?: number }).availableBalance ?? 0);
  // Now and then a till asks for more than the customer has: a refused, recorded attempt.
  const points = random.chance(0.06)
    ? Math.floor(available) + 50
    : Math.floor(available * (0.2 + random.next() * 0.6));
  if (points < 1) return;
  const holdOp = story.nextId(t);
  const hold = await api.pos(posKey, 'POST', '/pos/api/v1/holds', {
    operationId: holdOp,
    cardNumber: customer.cardNumber,
    points,
  });
  story.backdate.posOperation(holdOp, new Date(t));
  if (hold.status !== 201) return;
  const holdId = (hold.body as { holdId: string }).holdId;
  const outcome = random.next();
  if (outcome > 0.96) return; // abandoned at the till: the hold expires and the sweeper voids it
  const closeOp = story.nextId(t + MINUTE);
  if (outcome < 0.72) {
    await api.pos(posKey, 'POST', `/pos/api/v1/holds/${holdId}/capture`, { operationId: closeOp });
  } else if (outcome < 0.84) {
    await api.pos(posKey, 'POST', `/pos/api/v1/holds/${holdId}/capture`, {
      operationId: closeOp,
      points: Math.max(1, Math.floor(points * (0.4 + random.next() * 0.5))),
    });
  } else {
    await api.pos(posKey, 'POST', `/pos/api/v1/holds/${holdId}/release`, { operationId: closeOp });
  }
  story.backdate.posOperation(closeOp, new Date(t + MINUTE));
  story.stats.redemptions++;
}

async function returnSomething(story: Story, t: number) {
  const { random } = story;
  if (story.recentAccruals.length < 20) return;
  const original = story.recentAccruals[random.int(0, story.recentAccruals.length - 20)] as PastAccrual;
  const operationId = story.nextId(t);
  const whole = random.chance(0.3);
  await story.api.pos(original.posKey, 'POST', '/pos/api/v1/returns', {
    operationId,
    originalOperationId: original.operationId,
    ...(whole ? {} : { items: [{ sku: random.pick(original.skus), quantity: 1 }] }),
  });
  story.backdate.posOperation(operationId, new Date(t));
  story.stats.returns++;
}

async function goodwill(story: Story, customer: Customer, t: number) {
  const { random } = story;
  story.backdate.mark(new Date(t));
  const result = await story.api.admin<{ operation: { id: string } }>(
    'POST',
    '/api/v1/admin/operations/manual-accrual',
    {
      accountId: customer.accountId,
      points: random.pick([10, 25, 50, 100]),
      reason: random.pick(['Goodwill: late delivery', 'Birthday bonus', 'Service recovery', 'Survey reward']),
    },
  );
  story.backdate.operation(result.operation.id, new Date(t));
  story.stats.manual++;
}
