import { randomBytes } from 'node:crypto';
import type { App } from '../app';
import type { Db } from '../db/connection';
import { rebuildDerivedTables } from '../db/derived';
import { sweepExpiredHolds } from '../modules/ledger/hold-sweeper';
import { ledgerIsSound, verifyLedger } from '../modules/ledger/verify-ledger';
import { createSeedApi, type SeedApi } from './api-client';
import { Backdater } from './backdate';
import { exclusions, stores } from './catalogue';
import { createRandom, type Random } from './random';
import { type Customer, simulateDays } from './simulate';

export interface SeedOptions {
  accounts: number;
  days: number;
  /** Average purchases per day over the whole programme. */
  purchasesPerDay: number;
  seed: number;
  log?: (line: string) => void;
}

export const defaultSeedOptions: SeedOptions = {
  accounts: 2000,
  days: 30,
  purchasesPerDay: 220,
  seed: 20261121,
};

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** The programme started this long before the seed's day; ruleset 1 has been active since. */
const PROGRAMME_AGE_DAYS = 150;

/** Fills an empty database with a living programme. Refuses to run on one that already has accounts. */
export async function seedProgramme(app: App, db: Db, adminToken: string, options: SeedOptions) {
  const log = options.log ?? (() => {});
  const existing = await db.selectFrom('accounts').select('id').limit(1).execute();
  if (existing.length > 0) return { seeded: false as const };

  const api = createSeedApi(app, adminToken);
  const random = createRandom(options.seed);
  const backdate = new Backdater();
  const now = Date.now();

  backdate.mark(new Date(now - PROGRAMME_AGE_DAYS * DAY));
  // An hour: long enough for click-and-collect orders to keep their points reserved while the demo runs.
  await api.admin('POST', '/api/v1/settings', {
    holds: { ttl_minutes: 60 },
    cards: { limit_per_account: 3 },
  });
  await createRulesets(api, backdate, now);
  const posKeys = await createPosKeys(api, backdate, options, now);
  // A key per store; the closed store's is inactive and rings up nothing, so it is not among the tills.
  log(`rulesets, exclusions and ${stores.length} POS keys created (${posKeys.length} active)`);

  const customers = await createCustomers(api, random, backdate, options, now);
  log(`${customers.length} accounts with cards created`);

  const stats = await simulateDays(api, random, backdate, customers, posKeys, options, now);
  log(
    `${stats.history} sign-up and earlier purchases, ${stats.purchases} purchases, ${stats.redemptions} redemptions, ` +
      `${stats.returns} returns, ${stats.openHolds} open holds simulated`,
  );

  await backdate.apply(db);
  await sweepExpiredHolds(db);
  await rebuildDerivedTables(db);
  const report = await verifyLedger(db);
  if (!ledgerIsSound(report))
    throw new Error(`Seeded ledger does not verify: ${JSON.stringify(report).slice(0, 500)}`);
  log('ledger verified; rollups rebuilt');
  return { seeded: true as const, ...stats, accounts: customers.length };
}

async function createRulesets(api: SeedApi, backdate: Backdater, now: number) {
  // Each version is written some days before it takes effect, as a programme manager would.
  const rulesets = [
    { version: 1, config: { percent: 3 }, activeFrom: now - PROGRAMME_AGE_DAYS * DAY, writtenDaysBefore: 0 },
    { version: 2, config: { percent: 5 }, activeFrom: now - 45 * DAY, writtenDaysBefore: 6 },
    { version: 3, config: { percent: 6.5 }, activeFrom: now + 14 * DAY, writtenDaysBefore: 17 },
  ];
  for (const { writtenDaysBefore, ...ruleset } of rulesets) {
    const writtenAt = new Date(ruleset.activeFrom - writtenDaysBefore * DAY + 10 * HOUR);
    backdate.mark(writtenAt);
    const created = await api.admin<{ id: string }>('POST', '/api/v1/rulesets', {
      ...ruleset,
      activeFrom: new Date(ruleset.activeFrom).toISOString(),
    });
    backdate.ruleset(created.id, writtenAt);
    const list = ruleset.version === 1 ? exclusions.slice(0, 2) : exclusions;
    for (const [i, sku] of list.entries()) {
      backdate.mark(new Date(writtenAt.getTime() + (i + 1) * 60_000));
      await api.admin('POST', `/api/v1/rulesets/${created.id}/excluded-skus`, sku);
    }
  }
}

/** A till of one store; its key exists from `since` on, and only then does it ring up sales. */
export interface SeedPosKey {
  key: string;
  weight: number;
  since: number;
}

async function createPosKeys(api: SeedApi, backdate: Backdater, options: SeedOptions, now: number) {
  const keys: SeedPosKey[] = [];
  // Days before the seed's day each store's till was connected: two stores from the start, the others
  // joining during the simulated month, the closed one long ago.
  const month = options.days;
  const openedDaysAgo = [
    PROGRAMME_AGE_DAYS,
    PROGRAMME_AGE_DAYS - 20,
    month * 0.8,
    month * 0.55,
    month * 0.3,
    120,
  ];
  for (const [i, store] of stores.entries()) {
    const key = randomBytes(24).toString('base64url');
    const active = i < stores.length - 1;
    const since = now - (openedDaysAgo[i] ?? month) * DAY + 9 * HOUR;
    backdate.mark(new Date(since));
    const created = await api.admin<{ id: string }>('POST', '/api/v1/pos-keys', {
      ...store,
      apiKey: key,
      status: active ? 'active' : 'inactive',
    });
    backdate.posKey(created.id, new Date(since));
    if (active) keys.push({ key, weight: [5, 4, 2, 3, 3][i] ?? 1, since });
  }
  return keys;
}

async function createCustomers(
  api: SeedApi,
  random: Random,
  backdate: Backdater,
  options: SeedOptions,
  now: number,
) {
  const customers: Customer[] = [];
  for (let i = 0; i < options.accounts; i++) {
    // Three in four joined before the simulated month; the rest during it, so new cards keep coming.
    const since = random.chance(0.75)
      ? new Date(now - (options.days + random.int(1, 120)) * DAY - random.int(0, DAY))
      : new Date(now - random.next() * options.days * DAY);
    backdate.mark(since);
    const account = await api.admin<{ id: string }>('POST', '/api/v1/accounts', {
      clientId: `C-${100000 + i}`,
    });
    backdate.account(account.id, since);
    let card = await api.admin<{ id: string; number: string }>('POST', `/api/v1/cards/issue/${account.id}`);
    backdate.card(card.id, since);
    if (random.chance(0.04)) {
      // Lost and replaced: the old card is blocked, a new one issued a few days later.
      const later = new Date(Math.min(now - HOUR, since.getTime() + random.int(1, 20) * DAY));
      backdate.mark(later);
      const replaced = await api.admin<{ id: string; number: string }>(
        'POST',
        `/api/v1/cards/${card.id}/reissue`,
      );
      backdate.card(card.id, since, later);
      backdate.card(replaced.id, later);
      card = replaced;
    } else if (random.chance(0.03)) {
      const blockedAt = new Date(Math.min(now - HOUR, since.getTime() + random.int(2, 40) * DAY));
      backdate.mark(blockedAt);
      await api.admin('POST', `/api/v1/cards/${card.id}/block`, {
        reason: random.pick(['Lost card', 'Reported stolen', 'Fraud suspicion']),
      });
      backdate.card(card.id, since, blockedAt);
      continue;
    }
    customers.push({ accountId: account.id, cardNumber: card.number, since });
  }
  return customers.sort((a, b) => a.since.getTime() - b.since.getTime());
}
