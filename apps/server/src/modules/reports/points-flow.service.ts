import type { PointsFlowQuery, PointsFlowReport, PointsFlowRow } from '@loyalty/contracts';
import { pointsFlowQuery } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { type Cents, centsNumber, parseCents } from '../../lib/money';
import { lotsOutstanding } from './outstanding.repository';
import { type FlowKind, type FlowSource, outstandingTotal, rollupFlowSource } from './points-flow.repository';

const DAY_MS = 86_400_000;

interface Sums {
  earned: Cents;
  redeemed: Cents;
  returned: Cents;
  expired: Cents;
  adjusted: Cents;
}

const zero = (): Sums => ({ earned: 0n, redeemed: 0n, returned: 0n, expired: 0n, adjusted: 0n });

/** What a period adds to the balances: credits in, debits (stored negative, shown positive) out. */
const net = (s: Sums): Cents => s.earned + s.adjusted - s.redeemed - s.returned - s.expired;

/** A signed rollup sum as the report shows it: debits as positive numbers, credits as they are. */
function shown(kind: FlowKind, points: Cents): Cents {
  return kind === 'redeemed' || kind === 'returned' || kind === 'expired' ? -points : points;
}

function toWire(period: string, opening: Cents, s: Sums): PointsFlowRow {
  return {
    period,
    opening: centsNumber(opening),
    earned: centsNumber(s.earned),
    redeemed: centsNumber(s.redeemed),
    returned: centsNumber(s.returned),
    expired: centsNumber(s.expired),
    adjusted: centsNumber(s.adjusted),
    closing: centsNumber(opening + net(s)),
  };
}

/** part / whole to four decimals (a rate in percent to two), null when nothing was credited. */
function rate(part: Cents, whole: Cents): number | null {
  if (whole <= 0n) return null;
  return Number((part * 10_000n + whole / 2n) / whole) / 10_000;
}

/**
 * The points-flow report (PROGRAMME-API §2): the day cells of the source rolled forward from the opening,
 * period by period, in cents; a row's closing is the next row's opening by construction.
 */
export async function pointsFlow(
  db: Db,
  input: PointsFlowQuery,
  source: FlowSource = rollupFlowSource,
): Promise<PointsFlowReport> {
  const query = pointsFlowQuery.parse(input);
  const start = new Date(`${query.from}T00:00:00Z`);
  const end = new Date(Date.parse(`${query.to}T00:00:00Z`) + DAY_MS);
  const [data, total, lots] = await Promise.all([
    source.read(db, { start, end, posId: query.posId, groupBy: query.groupBy }),
    outstandingTotal(db),
    lotsOutstanding(db),
  ]);

  const byDay = new Map<string, Sums>();
  for (const cell of data.cells) {
    const day = new Date(cell.bucket).toISOString().slice(0, 10);
    const sums = byDay.get(day) ?? zero();
    sums[cell.kind] += shown(cell.kind, parseCents(cell.points));
    byDay.set(day, sums);
  }

  const periods: Array<{ period: string; sums: Sums }> = [];
  for (let t = start.getTime(); t < end.getTime(); t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    const period = query.groupBy === 'day' ? day : day.slice(0, 7);
    if (periods.at(-1)?.period !== period) periods.push({ period, sums: zero() });
    const into = periods.at(-1)!.sums;
    const add = byDay.get(day);
    if (add) for (const kind of Object.keys(add) as FlowKind[]) into[kind] += add[kind];
  }

  const opening = parseCents(data.opening);
  let running = opening;
  const totals = zero();
  const rows = periods.map(({ period, sums }) => {
    const row = toWire(period, running, sums);
    running += net(sums);
    for (const kind of Object.keys(sums) as FlowKind[]) totals[kind] += sums[kind];
    return row;
  });
  const credited = totals.earned + totals.adjusted;
  const { period: _, ...range } = toWire('', opening, totals);
  return {
    rows,
    totals: range,
    breakageRate: rate(totals.expired, credited),
    redemptionRate: rate(totals.redeemed, credited),
    outstanding: {
      total: centsNumber(parseCents(total)),
      pending: centsNumber(parseCents(lots.pending)),
      expiring30Days: centsNumber(parseCents(lots.expiring30Days)),
    },
  };
}
