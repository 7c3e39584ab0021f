/**
 * Screenshots of the market list and the hot-stocks list at 390×844 in Chromium, tw and en, each
 * showing an instrument whose reference price is an estimate (Quote.referenceEstimated), into
 * OUT (default /tmp/rules-shots). Build the client first (`npx vite build`), then
 * `npx tsx scripts/rankings-screenshots.ts` (PORT, default 3203).
 *
 * It starts the server in-process on the integration harness (PGlite in memory, the manual market
 * clock) with a few dozen instruments and moves the replay to 13:40 of 2025-06-10 (6918 愛派司's
 * listing day: no previous close, reference = its open, flagged) for the hot stocks by turnover,
 * and of 2025-06-11 (00663L back from its 1:7 split: 24.31 estimated) for the market list's ETFs;
 * then 10:30 of 2025-06-11 for the intraday label.
 */
import { mkdirSync } from 'node:fs';
import { REPLAY_DAY_MS } from '../server/market/clock';
import { HARNESS_SESSION, startHarness } from '../tests/integration/harness';
import { advanceMarket } from '../tests/integration/trading-support';
import { openScreens, type Lang } from './support/screens';

const OUT = process.env.OUT ?? '/tmp/rules-shots';
const PORT = Number(process.env.PORT ?? 3203);
const SYMBOLS = [
  '2330',
  '2317',
  '0050',
  '2454',
  '2412',
  '2308',
  '2881',
  '0056',
  '00878',
  '00631L',
  '00663L',
  '00632R',
  '00646',
  '00675L',
  '00670L',
  '00679B',
  '6918',
  '6446',
  '4743',
  '1795',
  '4147',
  '6589',
  '6547',
  '6423',
  '4806',
  '5345',
  '911608',
  '3324',
  '6488',
  '7749',
];

async function main() {
  mkdirSync(OUT, { recursive: true });
  const h = await startHarness({ importSymbols: SYMBOLS });
  const base = h.wall.now;
  const goTo = async (k: number, minutesAfter0900: number) => {
    const target = base + (k - HARNESS_SESSION) * REPLAY_DAY_MS + (minutesAfter0900 - 60) * 60_000;
    const dayStart = base + (k - HARNESS_SESSION) * REPLAY_DAY_MS - 90 * 60_000;
    if (dayStart + 60_000 > h.wall.now) h.wall.now = dayStart + 60_000;
    await advanceMarket(h, target - h.wall.now);
  };
  const cal = h.dividends.calendar;
  const k0610 = Array.from({ length: 73 }, (_, k) => k).find((k) => cal.dateOf(k) === '2025-06-10')!;
  await h.app.listen({ port: PORT, host: '127.0.0.1' });
  const screens = await openScreens({ port: PORT, out: OUT, settleMs: 1500 });
  /** Screenshot of `hash` for a guest; `row` must be on screen, marked as estimated when `marked`. */
  const shot = (lang: Lang, hash: string, name: string, row: string, marked = true) =>
    screens.shot(
      null,
      lang,
      hash,
      name,
      async (p) => {
        const mark = await p.getByTestId(`ref-est-${row}`).isVisible();
        if (mark !== marked) throw new Error(`${name} ${lang}: ${row} marked ${mark}`);
      },
      { ready: `market-row-${row}` },
    );
  await goTo(k0610, 4 * 60 + 40);
  for (const lang of ['tw', 'en'] as const)
    await shot(
      lang,
      `/market/stockHot/stockList?sort=turnover&industry=${encodeURIComponent('生技醫療業')}`,
      'hot-stocks-turnover-0610',
      '6918',
    );
  await goTo(k0610 + 1, 4 * 60 + 40);
  for (const lang of ['tw', 'en'] as const)
    await shot(lang, '/market/market?sort=all&type=etf', 'market-list-etf-0611', '00663L');
  await goTo(k0610 + 2, 90);
  for (const lang of ['tw', 'en'] as const)
    await shot(lang, '/market/market?sort=all&type=etf', 'market-list-etf-0612-intraday', '0050', false);
  await screens.close();
  await h.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
