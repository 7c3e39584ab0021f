/**
 * Derives server/db/seed-data/reference/etf_classes.csv once, offline: the price-limit class,
 * multiple and bond-ETF flag of every ETF, ETN and REIT of the bundled data (contract/
 * dated-rules.ts EtfClass; TW-MARKET-RULES "Daily price limit, ETFs and ETNs", "Securities
 * transaction tax, bond ETFs"). The product reads only the CSV; this script records how it was
 * made (PROVENANCE §13) and is re-run only when the listing files change.
 *
 *   npx tsx scripts/derive-etf-classes.ts            # writes the CSV, prints the overrides
 *
 * Method, from the exchanges' published names and CFI codes, then checked against the window's
 * real prices:
 * 1. multiple: a name with 正2/正二 is a 2× leveraged fund, 反1/反一 a −1× inverse fund;
 * 2. underlying: a name naming a foreign market, index family or asset (FOREIGN_MARKETS), or a
 *    global theme without naming Taiwan (FOREIGN_THEMES, DOMESTIC_MARKERS), tracks a foreign index; every bond ETF tracks foreign bonds (no domestic-component bond ETF is
 *    listed in the data); REITs hold Taiwan real estate;
 * 3. evidence from tw_daily (days after a traded day only; ex-rights days, whose limits the
 *    exchange publishes, and split days are skipped): a fund the name calls domestic whose prices left
 *    the band 10 % × multiple around the previous close, and never stopped exactly on the band's
 *    edge, has no limit (foreign); a fund the name calls foreign that stopped exactly on the
 *    band's edge on 2 or more days and never left it has the limit (ETNs 02001L/02001R);
 * 4. bond: an ETF (not an ETN) whose CFI asset letter is B (debt) or whose code ends in B, and
 *    which is neither leveraged nor inverse (Art. 2-1 §2 excludes those).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { securityTypeOf } from '../contract/market';
import { priceLimitsMinor } from '../contract/market-rules';
import { toMinor } from '../contract/money';
import { parseCsv, readCsvRecordsSync, seedDataPath, toRecords } from '../server/market/csv';

/** Name fragments that name a foreign market, index family, currency or commodity. */
const FOREIGN_MARKETS = [
  '美',
  'US',
  '日本',
  '日經',
  '日圓',
  '中國',
  '陸',
  '滬深',
  '上証',
  '上證',
  '深証',
  '深100',
  '中証',
  'A50',
  'A股',
  '香港',
  '恒生',
  '印度',
  '越南',
  '歐洲',
  '全球',
  '亞太',
  '亞洲',
  '新興',
  '臺韓',
  '台韓',
  'NASDAQ',
  '那斯達克',
  'S&P',
  '標普',
  '道瓊',
  '費城',
  'FANG',
  'ARK',
  'MSCI中國',
  'REITs',
  '不動產',
  '特別股',
  '蘋果',
  '黃金',
  '石油',
  '原油',
  '布蘭特',
  '黃豆',
  '白銀',
  '銅',
] as const;

/**
 * Name fragments of global themes: a foreign underlying unless the name also names Taiwan
 * (DOMESTIC_MARKERS), e.g. 統一特選台灣5GN is domestic, 元大全球5G foreign.
 */
const FOREIGN_THEMES = [
  '航太',
  '太空',
  '洲際',
  '未來車',
  '智能電動車',
  '電池及儲能',
  '元宇宙',
  '基因免疫',
  '潔淨能源',
  '數位支付',
  '網路資安',
  '機器人',
  '5G',
  '未來通訊',
  '行動通訊',
  '航運',
] as const;

/** Name fragments that name the Taiwan market. */
const DOMESTIC_MARKERS = ['台灣', '臺灣', '台股', '上櫃', '櫃買'] as const;

type LimitClass = 'domestic' | 'leveraged' | 'inverse' | 'foreign';

interface Row {
  code: string;
  name: string;
  type: string;
  limitClass: LimitClass;
  multiple: number;
  bond: boolean;
  basis: string;
}

const securities = readCsvRecordsSync(seedDataPath('securities.csv'));
const codes = readCsvRecordsSync(seedDataPath('full-market', 'codes_2025-04-02_2025-07-18.csv'));
const daily = toRecords(
  parseCsv(
    gunzipSync(readFileSync(seedDataPath('full-market', 'tw_daily_2025-04-02_2025-07-18.csv.gz'))).toString(
      'utf8',
    ),
  ),
);
const exDays = new Set(
  readCsvRecordsSync(seedDataPath('full-market', 'ex_rights_2025-04-01_2025-07-22.csv')).map(
    (r) => `${r.code}|${r.ex_date}`,
  ),
);
const splitDays = new Set(
  readCsvRecordsSync(seedDataPath('full-market', 'splits.csv')).map((r) => `${r.code}|${r.resume_date}`),
);

const info = new Map<string, { name: string; type: string; cfi: string }>();
for (const r of securities) {
  const type = securityTypeOf(r.code!, r.type);
  if (type === 'etf' || type === 'etn' || type === 'reit')
    info.set(r.code!, { name: r.name!, type, cfi: r.cfi ?? '' });
}
for (const r of codes) {
  const type = securityTypeOf(r.code!);
  if (!info.has(r.code!) && (type === 'etf' || type === 'etn' || type === 'reit'))
    info.set(r.code!, { name: r.name_latest!, type, cfi: '' });
}

const dates = [...new Set(daily.map((r) => r.date!))].sort();
const dayIndex = new Map(dates.map((d, i) => [d, i]));
const bars = new Map<string, Array<{ date: string; h: number; l: number; c: number }>>();
for (const r of daily) {
  if (!info.has(r.code!)) continue;
  let l = bars.get(r.code!);
  if (!l) bars.set(r.code!, (l = []));
  l.push({ date: r.date!, h: toMinor(r.high!), l: toMinor(r.low!), c: toMinor(r.close!) });
}

/**
 * Days outside and days exactly on the edge of the ±10 % × m band around the previous close, on
 * days that follow a traded day (after a day without trades the exchange's reference is not
 * certain to be the last close, so those days prove nothing).
 */
function evidence(code: string, m: number): { outside: string[]; edge: string[] } {
  const outside: string[] = [];
  const edge: string[] = [];
  const rows = (bars.get(code) ?? []).sort((a, b) => (a.date < b.date ? -1 : 1));
  for (let k = 1; k < rows.length; k++) {
    const prev = rows[k - 1]!;
    const bar = rows[k]!;
    if (dayIndex.get(prev.date)! !== dayIndex.get(bar.date)! - 1) continue;
    if (exDays.has(`${code}|${bar.date}`) || splitDays.has(`${code}|${bar.date}`)) continue;
    const { upMinor, downMinor } = priceLimitsMinor(prev.c, 'etf', m);
    if (bar.h > upMinor || bar.l < downMinor) outside.push(bar.date);
    else if (bar.h === upMinor || bar.l === downMinor) edge.push(bar.date);
  }
  return { outside, edge };
}

const out: Row[] = [];
const overrides: string[] = [];
for (const [code, { name, type, cfi }] of [...info].sort(([a], [b]) => (a < b ? -1 : 1))) {
  const leveraged = /正2|正二/.test(name);
  const inverse = /反1|反一/.test(name);
  const multiple = leveraged ? 2 : 1;
  const limited: LimitClass = leveraged ? 'leveraged' : inverse ? 'inverse' : 'domestic';
  const isBondEtf = type === 'etf' && (cfi[4] === 'B' || code.endsWith('B'));
  const marker =
    FOREIGN_MARKETS.find((w) => name.includes(w)) ??
    (DOMESTIC_MARKERS.some((w) => name.includes(w))
      ? undefined
      : FOREIGN_THEMES.find((w) => name.includes(w)));
  const foreignByName = type !== 'reit' && (marker !== undefined || isBondEtf);
  let limitClass: LimitClass = foreignByName ? 'foreign' : limited;
  let basis = foreignByName
    ? `name: foreign underlying (${marker ?? 'bond ETF'})`
    : type === 'reit'
      ? 'REIT: Taiwan real estate'
      : 'name: domestic underlying';
  if (leveraged || inverse) basis += `; ${leveraged ? '2x leveraged' : '-1x inverse'} (name)`;
  const ev = evidence(code, multiple);
  const pct = 10 * multiple;
  if (limitClass !== 'foreign' && ev.outside.length > 0 && ev.edge.length === 0) {
    limitClass = 'foreign';
    basis += `; data: left the ±${pct} % band on ${ev.outside.join(' ')}, never on its edge: no limit`;
    overrides.push(`${code} ${name}: → foreign (${ev.outside.join(' ')})`);
  } else if (limitClass === 'foreign' && ev.edge.length >= 2 && ev.outside.length === 0) {
    limitClass = limited;
    basis += `; data: stopped on the ±${pct} % band's edge on ${ev.edge.join(' ')}, never beyond: limited`;
    overrides.push(`${code} ${name}: → ${limited} (${ev.edge.join(' ')})`);
  } else if (limitClass !== 'foreign' && ev.outside.length > 0) {
    basis += `; data: on the band's edge on ${ev.edge.join(' ')}; outside it on ${ev.outside.join(' ')} (reference not the previous close)`;
  }
  const bond = isBondEtf && !leveraged && !inverse;
  out.push({ code, name, type, limitClass, multiple, bond, basis });
}

const header = 'code,name,security_type,limit_class,multiple,bond,basis';
const lines = out.map((r) =>
  [
    r.code,
    r.name,
    r.type,
    r.limitClass,
    r.multiple,
    r.bond ? 'yes' : 'no',
    `"${r.basis.replaceAll('"', '""')}"`,
  ].join(','),
);
writeFileSync(seedDataPath('reference', 'etf_classes.csv'), [header, ...lines].join('\n') + '\n');
const count = (c: LimitClass) => out.filter((r) => r.limitClass === c).length;
console.log(
  `${out.length} funds: ${count('domestic')} domestic, ${count('leveraged')} leveraged, ${count('inverse')} inverse, ${count('foreign')} foreign; ${out.filter((r) => r.bond).length} bond ETFs`,
);
console.log(`overrides by the window's prices:\n  ${overrides.join('\n  ')}`);
