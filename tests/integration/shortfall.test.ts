/**
 * A loss beyond the member's funds (a gap larger than the margin) never makes `available`
 * negative: the excess moves to the member's debt account as a `lossShortfall` transaction,
 * realised profit is the true loss, and the ledger still reconciles. The engine runs against a
 * stub quote source (the market is the outside edge here) so the gap can be set exactly.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Quote } from '../../contract/market';
import { closeResult, openCosts } from '../../contract/market-rules';
import type { Database } from '../../server/db/client';
import { memoryDatabase } from '../support/db-template';
import { importMarketData } from '../../server/market/import';
import { users } from '../../server/db/schema';
import type { AuthUser } from '../../server/modules/common/context';
import type { MarketFeed } from '../../server/market/feed';
import {
  ensureMemberAccounts,
  ensurePlatformAccounts,
  isClean,
  memberBalances,
  move,
  post,
  reconcile,
} from '../../server/modules/ledger/ledger';
import { createTradingEngine } from '../../server/modules/trading/engine';

let d: Database;
let user: AuthUser;
let quote: Quote;

const feed = {
  isTradable: (s: string) => s === '2330',
  quote: (s: string) => (s === '2330' ? quote : undefined),
  kind: () => 'stock',
  onQuote: () => () => undefined,
  // The engine trades on the market clock: 10:00 of a replayed session (continuous trading).
  clock: () => ({ source: 'replay', mode: 'replay', phase: 'open', speed: 1, now: Date.UTC(2026, 6, 31, 2) }),
} as unknown as MarketFeed;

const at = (priceMinor: number): Quote => ({
  symbol: '2330',
  name: '台積電',
  kind: 'stock',
  lastMinor: priceMinor,
  openMinor: priceMinor,
  highMinor: priceMinor,
  lowMinor: priceMinor,
  prevCloseMinor: 100_000,
  limitUpMinor: 110_000,
  limitDownMinor: 90_000,
  bidMinor: priceMinor,
  askMinor: priceMinor,
  volumeShares: 0,
  turnoverMinor: 0,
  ts: 0,
  replayDate: '2026-07-31',
  phase: 'open',
  traded: true,
});

beforeAll(async () => {
  d = (await memoryDatabase()).database;
  await importMarketData(d.db, { symbols: ['2330'] });
  await ensurePlatformAccounts(d.db);
  const [u] = await d.db.insert(users).values({ account: '0966666666', passwordHash: 'x' }).returning();
  await ensureMemberAccounts(d.db, u!.id);
  user = {
    id: u!.id,
    account: u!.account,
    role: 'member',
    tradeBanned: false,
    withdrawBanned: false,
    frozen: false,
  };
});
afterAll(async () => d?.close());

it('moves a loss beyond the funds to debt and keeps available at zero', async () => {
  const engine = createTradingEngine({ db: d.db, feed, leverages: [10] });
  quote = at(100_000); // NT$1,000
  const cost = openCosts({ priceMinor: 100_000, lots: 1, leverage: 10, side: 'long', kind: 'stock' });
  await d.db.transaction((tx) =>
    post(tx, {
      type: 'deposit',
      postings: move(
        { platform: 'bank_clearing' },
        { userId: user.id, purpose: 'available' },
        cost.requiredMinor,
      ),
    }),
  );
  const order = await engine.placeOrder(user, {
    symbol: '2330',
    side: 'long',
    orderType: 'market',
    lots: 1,
    leverage: 10,
  });
  expect(await memberBalances(d.db, user.id)).toMatchObject({ available: 0, margin: cost.marginMinor });

  quote = at(85_000); // a 15 % gap: the loss (NT$150,000) exceeds the NT$100,000 margin
  const closed = await engine.closePosition(user, order.id);
  const r = closeResult({
    openValueMinor: 100_000 * 1000,
    closePriceMinor: 85_000,
    shares: 1000,
    side: 'long',
    kind: 'stock',
  });
  expect(closed.pnlMinor).toBe(r.pnlMinor);
  const owed = -(cost.marginMinor + r.pnlMinor - r.feeMinor - r.taxMinor);
  expect(owed).toBeGreaterThan(0);
  expect(await memberBalances(d.db, user.id)).toEqual({ available: 0, frozen: 0, margin: 0, debt: -owed });
  expect(isClean(await reconcile(d.db))).toBe(true);
});
