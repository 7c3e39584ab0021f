/**
 * Screenshots of positions across corporate actions at 390×844 in Chromium, tw and en, into
 * $OUT (default /tmp/corp-shots): the holdings list and a position's detail after 00663L's 1 → 7
 * (2025-06-11) and 0050's 1 → 4 (2025-06-18), the member's notices, and the holdings after the
 * window starts over (00663L bought after its split: 1,000 → 142 shares, the fraction paid).
 * Build the client first (`npx vite build`), then `PORT=3201 npx tsx scripts/corporate-actions-screenshots.ts`.
 *
 * In-process on the integration harness (PGlite in memory, the manual market clock): a member
 * opens 00663L, 0050 (long and short) and 4763 on 2025-06-03, the clock moves to 2025-06-18.
 */
import { mkdirSync } from 'node:fs';
import { REPLAY_DAY_MS } from '../server/market/clock';
import { HARNESS_SESSION, idem, startHarness } from '../tests/integration/harness';
import { advanceMarket } from '../tests/integration/trading-support';
import { openScreens } from './support/screens';

const OUT = process.env.OUT ?? '/tmp/corp-shots';
const PORT = Number(process.env.PORT ?? 3201);

async function main() {
  mkdirSync(OUT, { recursive: true });
  const h = await startHarness({ importSymbols: ['0050', '00663L', '4763', '2330'] });
  const base = h.wall.now;
  const cal = h.dividends.calendar;
  const sessionOn = (date: string) => {
    for (let k = cal.today(); k < cal.today() + 80; k++) if (cal.dateOf(k) === date) return k;
    throw new Error(date);
  };
  /** 10:00 (or `minutes` after 09:00) of the next session replaying `date`, actions applied. */
  const at = async (date: string, minutes = 60) => {
    const target = base + (sessionOn(date) - HARNESS_SESSION) * REPLAY_DAY_MS + (minutes - 60) * 60_000;
    h.wall.now = target - (minutes + 29) * 60_000;
    await advanceMarket(h, target - h.wall.now);
    await h.corporateActions.run();
    await h.trading.idle();
  };
  const me = '0912345678';
  const token = await h.fundedMember(me, 500_000_000);
  const place = async (symbol: string, side: 'long' | 'short', leverage: number) => {
    const r = await h.call(
      'trade/placeOrder',
      { symbol, side, orderType: 'market', lots: 1, leverage },
      token,
      idem(),
    );
    if (r.body.status !== 1) throw new Error(JSON.stringify(r.body));
    return r.body.data.id as number;
  };
  await at('2025-06-03');
  await place('00663L', 'long', 2);
  const etf = await place('0050', 'long', 1);
  await place('0050', 'short', 2);
  await place('4763', 'long', 1);
  await at('2025-06-18');
  await place('00663L', 'long', 1);

  await h.app.listen({ port: PORT, host: '127.0.0.1' });
  const screens = await openScreens({ port: PORT, out: OUT });
  const ME = { token, account: me };
  for (const lang of ['tw', 'en'] as const) {
    await screens.shot(ME, lang, '/position/position', 'positions-after-split');
    await screens.shot(ME, lang, '/position/position', 'positions-after-split-more', async (p) => {
      await p.mouse.wheel(0, 700);
      await p.waitForTimeout(600);
    });
    await screens.shot(ME, lang, `/position/positionDetail?id=${etf}`, 'position-detail-after-split');
    await screens.shot(ME, lang, '/home/notice?tab=account', 'notices-after-split');
    await screens.shot(ME, lang, '/home/notice?tab=account', 'notice-detail-after-split', async (p) => {
      await p
        .getByText(lang === 'tw' ? '公司行動持倉調整' : 'Position adjusted')
        .first()
        .click();
      await p.waitForTimeout(800);
    });
  }
  await at('2025-04-07');
  for (const lang of ['tw', 'en'] as const)
    await screens.shot(ME, lang, '/position/position', 'positions-after-restart');
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
