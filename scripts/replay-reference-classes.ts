/**
 * Enumerates every instrument-day of the full-market window by how its real OHLC fits its band
 * (server/market/reference.ts dayReference, with the price-limit class the feed gives it:
 * contract/dated-rules.ts limitClassOf over reference/etf_classes.csv and first listings): the
 * days that fit, those without a daily limit, and each misfit, with counts and the instrument-days
 * themselves, and every estimated reference (docs/adr/0008-replay-reference-prices-and-bands.md
 * quotes the counts).
 *
 *   npx tsx scripts/replay-reference-classes.ts [--list]
 *
 * No database: reads the seed files as importMarketData would merge them.
 */
import { limitClassOf } from '../contract/dated-rules';
import { listingTradingDayNumber } from '../contract/market-rules';
import { readSeedMarketData } from '../server/market/import';
import { isTradingDay } from '../server/market/calendar';
import { dayReference, loadCorporateActions } from '../server/market/reference';
import { loadEtfClasses } from '../server/market/rule-classes';
import { WINDOW_FIRST_DATE, WINDOW_LAST_DATE } from '../server/market/window';

const list = process.argv.includes('--list');
const { instruments, candles } = await readSeedMarketData();
const actions = await loadCorporateActions();
const etfClasses = await loadEtfClasses();
const inst = new Map(instruments.map((r) => [r.symbol, r]));
const inWindow = candles.filter((c) => c.date >= WINDOW_FIRST_DATE && c.date <= WINDOW_LAST_DATE);
const dates = [...new Set(inWindow.map((c) => c.date))].sort();
const bySymbol = new Map<string, typeof inWindow>();
for (const c of inWindow) {
  let l = bySymbol.get(c.symbol);
  if (!l) bySymbol.set(c.symbol, (l = []));
  l.push(c);
}
const counts = new Map<string, string[]>();
let total = 0;
for (const [symbol, rows] of bySymbol) {
  const i = inst.get(symbol)!;
  for (let k = 0; k < rows.length; k++) {
    const bar = rows[k]!;
    if (bar.date === dates[0]) continue; // the reference day, not replayed
    total++;
    const prev = rows[k - 1];
    // A first listing: common shares whose listing date has no earlier row in the window (as the feed).
    const first =
      i.securityType === 'stock' && i.listingDate && !rows.some((r) => r.date < i.listingDate!)
        ? i.listingDate
        : null;
    const listingDay =
      first && first <= bar.date
        ? listingTradingDayNumber({ listingDate: first, today: bar.date, isTradingDay })
        : null;
    const r = dayReference({
      code: symbol,
      date: bar.date,
      kind: i.kind,
      limitClass: limitClassOf({
        kind: i.kind,
        etf: etfClasses.get(symbol) ?? null,
        firstListingDay: listingDay,
      }),
      bar,
      prevCloseMinor: prev?.closeMinor ?? null,
      afterGap: !!prev && dates.indexOf(prev.date) !== dates.indexOf(bar.date) - 1,
      actions,
    })!;
    const band = r.limitUpMinor === null ? 'no limit' : 'band';
    const key = `${r.fit} ${r.limitClass} (${band}; reference: ${r.basis}${r.referenceEstimated ? ', estimated' : ''})`;
    let l = counts.get(key);
    if (!l) counts.set(key, (l = []));
    l.push(
      `${symbol} ${bar.date} ${i.securityType} prev ${prev ? `${prev.date} ${prev.closeMinor / 100}` : '-'} ref ${r.referenceMinor / 100} O ${bar.openMinor / 100} H ${bar.highMinor / 100} L ${bar.lowMinor / 100} C ${bar.closeMinor / 100}`,
    );
  }
}
console.log(`replayed instrument-days: ${total} (${dates.length - 1} days)`);
for (const [k, v] of [...counts.entries()].sort()) {
  console.log(`${String(v.length).padStart(7)}  ${k}`);
  if (list && (!k.startsWith('rule') || k.includes('estimated')))
    for (const x of v) console.log(`           ${x}`);
}
