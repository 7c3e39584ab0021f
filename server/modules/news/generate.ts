/**
 * The generated news items (contract/news.ts), built from data only, both languages:
 *
 * - `exDividend`: one item per replayed ex-date with cash-dividend events, published
 *   EX_NOTICE_DAYS replayed days before it (and on the days between): every stock going
 *   ex-dividend that day, its cash dividend per share, the exchange's reference price and the
 *   close before (full-market/ex_rights_*.csv). Key `exDividend:<ex session>` (a new item each
 *   cycle of the window, as the replay itself starts over).
 * - `ipo`: one item per public subscription when its apply days come near (ipo_offerings, which
 *   the subscription runner places on the clock from ipo_subscriptions.csv): code, name, price,
 *   shares offered, the apply/draw/listing dates on the replay, how the price was set and the
 *   real announcement it comes from. Key `ipo:<offering id>`.
 * - `marketSummary`: at the close of a replayed day (13:30 on), from the feed's rankings: the
 *   five top gainers, losers and turnover leaders, advancers/decliners and the whole market's
 *   turnover. Key `marketSummary:<session>`.
 *
 * Company names are the exchange's Chinese short names in both languages (the data have no
 * English names). Money as NT$ with thousands separators from integer minor units.
 */
import { and, asc, between, eq, gt } from 'drizzle-orm';
import { IPO_MARKET_TYPES, IPO_STEP_OFFSETS } from '../../../contract/ipo';
import { microsToDecimal } from '../../../contract/dividends';
import { minorToDecimal } from '../../../contract/money';
import type { Quote } from '../../../contract/market';
import type { Db } from '../../db/client';
import { exRightsEvents, ipoOfferings } from '../../db/schema';
import type { RankingSnapshot } from '../market/rankings';
import type { GeneratedItem } from './articles';
import enStrings from '../../../locales/more/en.json';

/**
 * An announcement's market type (初上市, …) in English: the member app's own string for it
 * (locales/more/en.json `ipo.marketTypes`), or the text as printed when it is not listed.
 */
function marketTypeEn(text: string): string {
  const key = IPO_MARKET_TYPES[text] as keyof typeof enStrings.ipo.marketTypes | undefined;
  return (key && enStrings.ipo.marketTypes[key]) ?? text;
}

/** Replayed days before an ex-date that its notice appears. */
export const EX_NOTICE_DAYS = 3;
/** Rows per list in a market summary. */
export const SUMMARY_TOP = 5;

/** "1060.49" → "1,060.49" (exact: from integer minor units). */
export function ntd(minor: number): string {
  const [whole, frac] = minorToDecimal(minor).split('.');
  const neg = whole!.startsWith('-');
  const digits = neg ? whole!.slice(1) : whole!;
  return `${neg ? '-' : ''}${digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac}`;
}

/** The ex-dividend notice for the ex-date `exDate` replayed at session `exDay`, or null if none. */
export async function exDividendItem(db: Db, exDay: number, exDate: string): Promise<GeneratedItem | null> {
  const rows = await db
    .select()
    .from(exRightsEvents)
    .where(and(eq(exRightsEvents.exDate, exDate), gt(exRightsEvents.cashDividendMicros, 0)))
    .orderBy(asc(exRightsEvents.symbol));
  if (!rows.length) return null;
  const first = rows[0]!;
  const more = rows.length - 1;
  const lineTw = (e: (typeof rows)[number]) =>
    `${e.symbol} ${e.name}（${e.market}）：每股現金股利 NT$${microsToDecimal(e.cashDividendMicros!)}，除息參考價 ${ntd(e.referenceMinor)}（前一日收盤 ${ntd(e.closeBeforeMinor)}）`;
  const lineEn = (e: (typeof rows)[number]) =>
    `${e.symbol} ${e.name} (${e.market}): cash dividend NT$${microsToDecimal(e.cashDividendMicros!)} per share, ex-dividend reference price ${ntd(e.referenceMinor)} (previous close ${ntd(e.closeBeforeMinor)})`;
  return {
    kind: 'exDividend',
    sourceKey: `exDividend:${exDay}`,
    titleTw: `除息預告 ${exDate}：${first.name}（${first.symbol}）${more ? `等 ${rows.length} 檔` : ''}`,
    titleEn: `Ex-dividend ${exDate}: ${first.symbol} ${first.name}${more ? ` and ${more} more` : ''}`,
    bodyTw: [
      `以下 ${rows.length} 檔股票於 ${exDate} 除息。除息前一日收盤時持有多單者可收取現金股利，空單須支付。資料來源：臺灣證券交易所、證券櫃檯買賣中心除權除息公告。`,
      '',
      ...rows.map(lineTw),
    ].join('\n'),
    bodyEn: [
      `${rows.length} stock${rows.length === 1 ? '' : 's'} go ex-dividend on ${exDate}. A long position held at the close before receives the cash dividend; a short position pays it. Source: TWSE and TPEx ex-rights/ex-dividend announcements.`,
      '',
      ...rows.map(lineEn),
    ].join('\n'),
    replayDate: exDate,
    symbols: rows.map((r) => r.symbol),
  };
}

/** The public-subscription items of offerings whose first apply day is in [fromDay, toDay]. */
export async function ipoItems(
  db: Db,
  fromDay: number,
  toDay: number,
  label: (day: number) => string | null,
): Promise<GeneratedItem[]> {
  const rows = await db
    .select()
    .from(ipoOfferings)
    .where(between(ipoOfferings.applyStartDay, fromDay, toDay))
    .orderBy(asc(ipoOfferings.applyStartDay), asc(ipoOfferings.id));
  return rows.map((o) => {
    const start = label(o.applyStartDay) ?? '';
    const end = label(o.applyStartDay + IPO_STEP_OFFSETS.lastApply) ?? '';
    const draw = label(o.applyStartDay + IPO_STEP_OFFSETS.draw) ?? '';
    const listing = label(o.listingDay) ?? '';
    const price = ntd(o.priceMinor);
    const ref = o.referenceMinor !== null && o.referenceDay !== null ? ntd(o.referenceMinor) : null;
    const refDate = o.referenceDay !== null ? (label(o.referenceDay) ?? '') : '';
    const ann = ntd(o.announcedPriceMinor ?? o.priceMinor);
    const basisTw = ref
      ? `承銷價依 ${refDate} 回放收盤價 NT$${ref} 與原公告的折價計算。`
      : o.pricing === 'listing'
        ? '初次上市櫃：依原公告承銷價掛牌。'
        : '';
    const basisEn = ref
      ? `The price applies the announcement's discount to the replayed close of ${refDate} (NT$${ref}).`
      : o.pricing === 'listing'
        ? 'A first listing: it lists at the announced offer price.'
        : '';
    return {
      kind: 'ipo' as const,
      sourceKey: `ipo:${o.id}`,
      titleTw: `公開申購：${o.name}（${o.symbol}）承銷價 NT$${price}`,
      titleEn: `Public subscription: ${o.symbol} ${o.name} at NT$${price}`,
      bodyTw: [
        `${o.name}（${o.symbol}，${o.marketType}）公開申購，承銷價 NT$${price}，承銷股數 ${o.sharesOffered.toLocaleString('en-US')} 股，每單位 ${o.sharesPerApplication.toLocaleString('en-US')} 股。`,
        `申購期間 ${start} 至 ${end}，抽籤日 ${draw}，上市日 ${listing}（回放日曆）。${basisTw}`,
        `資料來源：臺灣證券交易所 ${o.realApplyStart} 公開申購公告（原承銷價 NT$${ann}）。`,
      ].join('\n'),
      bodyEn: [
        `${o.symbol} ${o.name} (${marketTypeEn(o.marketType)}) opens for public subscription at NT$${price}: ${o.sharesOffered.toLocaleString('en-US')} shares offered, ${o.sharesPerApplication.toLocaleString('en-US')} shares per application.`,
        `Apply ${start} to ${end}, draw ${draw}, listing ${listing} (replay calendar). ${basisEn}`.trimEnd(),
        `Source: the TWSE public subscription announcement of ${o.realApplyStart} (offer price NT$${ann}).`,
      ].join('\n'),
      replayDate: start || null,
      symbols: [o.symbol],
    };
  });
}

const pct = (q: Quote) =>
  q.prevCloseMinor > 0 ? (((q.lastMinor - q.prevCloseMinor) * 100) / q.prevCloseMinor).toFixed(2) : '0.00';
const signed = (s: string) => (s.startsWith('-') ? s : `+${s}`);

/**
 * The market summary of the replayed day `date` (session `day`) from a rankings snapshot taken at
 * its close and the feed's quotes. Null when nothing traded.
 */
export function marketSummaryItem(
  day: number,
  date: string,
  snap: RankingSnapshot,
  quote: (symbol: string) => Quote | undefined,
): GeneratedItem | null {
  const b = snap.breadth.all;
  if (b.advancers + b.decliners + b.unchanged === 0) return null;
  const top = (symbols: readonly string[]) =>
    symbols
      .slice(0, SUMMARY_TOP)
      .map(quote)
      .filter((q): q is Quote => !!q && q.traded);
  const gainers = top(snap.orders.gainers);
  const losers = top(snap.orders.losers);
  const turnover = top(snap.orders.turnover);
  const turnoverTw = `成交值 NT$${ntd(b.turnoverMinor)}`;
  const rowTw = (q: Quote) => `${q.symbol} ${q.name} 收 ${ntd(q.lastMinor)}（${signed(pct(q))}%）`;
  const rowEn = (q: Quote) => `${q.symbol} ${q.name} closed ${ntd(q.lastMinor)} (${signed(pct(q))}%)`;
  const tvTw = (q: Quote) => `${q.symbol} ${q.name} 成交值 NT$${ntd(q.turnoverMinor)}`;
  const tvEn = (q: Quote) => `${q.symbol} ${q.name} turnover NT$${ntd(q.turnoverMinor)}`;
  return {
    kind: 'marketSummary',
    sourceKey: `marketSummary:${day}`,
    titleTw: `${date} 收盤：上漲 ${b.advancers} 家、下跌 ${b.decliners} 家，${turnoverTw}`,
    titleEn: `${date} close: ${b.advancers} up, ${b.decliners} down, turnover NT$${ntd(b.turnoverMinor)}`,
    bodyTw: [
      `${date} 回放交易日收盤。上漲 ${b.advancers} 家、下跌 ${b.decliners} 家、平盤 ${b.unchanged} 家、未成交 ${b.notTraded} 家；全市場${turnoverTw}，成交量 ${b.volumeShares.toLocaleString('en-US')} 股。`,
      '',
      '漲幅前五：',
      ...gainers.map(rowTw),
      '',
      '跌幅前五：',
      ...losers.map(rowTw),
      '',
      '成交值前五：',
      ...turnover.map(tvTw),
    ].join('\n'),
    bodyEn: [
      `Close of the replayed day ${date}. ${b.advancers} advancers, ${b.decliners} decliners, ${b.unchanged} unchanged, ${b.notTraded} not traded; market turnover NT$${ntd(b.turnoverMinor)}, volume ${b.volumeShares.toLocaleString('en-US')} shares.`,
      '',
      'Top gainers:',
      ...gainers.map(rowEn),
      '',
      'Top losers:',
      ...losers.map(rowEn),
      '',
      'Turnover leaders:',
      ...turnover.map(tvEn),
    ].join('\n'),
    replayDate: date,
    symbols: [...new Set([...gainers, ...losers, ...turnover].map((q) => q.symbol))],
  };
}
