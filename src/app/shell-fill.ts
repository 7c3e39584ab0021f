/**
 * The static shell's market list and stock detail, filled before the app has loaded: index.html paints the market
 * screen's frame at once (vite.config.ts `staticShell`), its entry asks for the list's first page
 * (src/api/early.ts), and when that answer comes this draws the rows that fit the screen into the
 * shell, as the app's rows will draw them: each row is a copy of a template the build prerendered
 * with the app's own row (`<template class="shell-row">`, src/app/static-shell.tsx), its texts and
 * colours drawn by `paintRankingFigures`, as the app's row draws each new quote. The app's first
 * render then shows the same rows from the same answer (src/features/market/ranking-window.ts),
 * so nothing moves or blinks when it replaces the shell. The detail's figures are set the same
 * way on the prerendered frame of a template instrument (`detailFigures`, as the app's head),
 * hidden until then (styles.css); the app starts from the same answer (./early-seed.ts).
 *
 * Nothing happens when the shell is gone (the app rendered first) or the answer is a refusal.
 */
import type { ResOf } from '../../contract/api';
import { detailFigures } from '../features/market/detail-figures';
import { columnsFor, paintRankingFigures, rankingFigures } from '../features/market/ranking-figures';
import type { RankingArgs } from '../features/market/ranking-args';
import type { EarlyAnswer } from '../api/early';
import { instrumentName } from '../live/instrument-name';
import { basisOf, homeIndex, indexFigures, HOME_INDEX_CODE } from '../features/home/index-figures';

/** The replayed date the template rows were prerendered with (replaced by the real one). */
export const TEMPLATE_DATE = '0000-00-00';
/** The symbol the template rows were prerendered with. */
export const TEMPLATE_SYMBOL = '0000';

type ListPage = ResOf<'market/list'>;

/** Sets an element's only text (no-op when the element is missing). */
function text(el: Element | null, value: string): void {
  if (el) el.textContent = value;
}

/** Sets the text and one colour property (`color`, `background`) of `root`'s `selector`, if there. */
function paint(root: Element, selector: string, value: string, prop: string, color: string): void {
  const el = root.querySelector<HTMLElement>(selector);
  text(el, value);
  el?.style.setProperty(prop, color);
}

/** Writes the replayed `date` into the template's date label under `root`, or removes it (no date). */
function dateLabel(root: Element, selector: string, date: string | null): void {
  const el = root.querySelector(selector);
  if (el && date) el.textContent = (el.textContent ?? '').replace(TEMPLATE_DATE, date);
  else el?.remove();
}

/**
 * Fills the visible market shell (`html[data-shell]`'s language) with the line saying whose
 * figures the list ranks (as the app's RankingFiguresNote) and the rows of `answer` that fit the
 * window, for the list `args`. Returns the number of rows drawn (0: nothing done).
 */
export function fillMarketShell(answer: EarlyAnswer, args: RankingArgs, doc: Document = document): number {
  const page = dataOf<ListPage>(answer);
  const lang = doc.documentElement.dataset.shell === 'en' ? 'en' : 'tw';
  const shell = visibleShell(doc, 'market');
  if (!page) return 0;
  const columns = columnsFor(args.sort);
  const template = shell?.querySelector<HTMLTemplateElement>(`template.shell-row[data-columns="${columns}"]`);
  const slot = shell?.querySelector('.center-fill');
  if (!template || !slot) return 0;

  const notTraded = template.dataset.notTraded ?? '';
  const first = template.content.firstElementChild as HTMLElement | null;
  const rowPx = parseFloat(first?.style.height ?? '') || 56;
  const fit = Math.ceil((doc.defaultView?.innerHeight ?? 844) / rowPx) + 1;
  const rows = doc.createElement('div');
  const date = page.replayDate;
  const note = shell?.querySelector<HTMLTemplateElement>(`template.shell-note[data-final="${!!page.final}"]`);
  const line = note?.content.firstElementChild?.cloneNode(true) as HTMLElement | undefined;
  if (line && date) {
    line.textContent = (line.textContent ?? '').replace(TEMPLATE_DATE, date);
    rows.append(line);
  }
  for (const q of page.items.slice(0, fit)) {
    const row = first?.cloneNode(true) as HTMLElement | undefined;
    if (!row) return 0;
    const f = rankingFigures(q, columns, lang, notTraded);
    const code = row.querySelector('.quote-code');
    if (code?.firstChild) code.firstChild.textContent = q.symbol;
    dateLabel(row, '.row-date', page.clock.replayDate ?? q.replayDate);
    paintRankingFigures(row, instrumentName({ name: q.name, nameEn: page.namesEn?.[q.symbol] }, lang), f);
    rows.append(row);
  }
  slot.replaceWith(rows);
  return rows.querySelectorAll('.quote-row').length;
}

/** The visible shell of `route` (`html[data-shell]`'s language), or null. */
function visibleShell(doc: Document, route: string): HTMLElement | null {
  const lang = doc.documentElement.dataset.shell;
  if (lang !== 'tw' && lang !== 'en') return null;
  return doc.querySelector<HTMLElement>(
    `.static-shell[data-shell-route="${route}"][data-shell-lang="${lang}"]`,
  );
}

/** The envelope data of a successful answer, else undefined. */
function dataOf<T>(answer: EarlyAnswer): T | undefined {
  const env = answer.body as { status?: number; data?: T } | null;
  return answer.httpStatus === 200 && env?.status === 1 ? env.data : undefined;
}

/**
 * Fills the visible stock detail shell with `answer` (market/detail for `symbol`): the title
 * (name and code), the replayed date, the last price, the change and the day's figures, drawn by
 * `detailFigures` as the app's head draws them, then shows them (`data-filled`). Returns whether
 * it did (false: a refusal, another symbol, or no shell any more).
 */
export function fillDetailShell(answer: EarlyAnswer, symbol: string, doc: Document = document): boolean {
  const detail = dataOf<ResOf<'market/detail'>>(answer);
  const shell = visibleShell(doc, 'detail');
  const lang = doc.documentElement.dataset.shell === 'en' ? 'en' : 'tw';
  if (!detail || !shell || detail.quote.symbol !== symbol) return false;
  const { quote, clock } = detail;
  const title = shell.querySelector('.detail-title');
  text(title?.children[0] ?? null, instrumentName({ name: quote.name, nameEn: detail.nameEn }, lang));
  text(title?.children[1] ?? null, quote.symbol);
  dateLabel(shell, '.replay-label', clock.replayDate ?? quote.replayDate);
  const f = detailFigures(quote, lang);
  paint(shell, '.detail-last', f.last, 'color', f.color);
  paint(shell, '.detail-change', f.change, 'color', f.color);
  shell.querySelectorAll<HTMLElement>('.detail-head .stat-v').forEach((el, i) => {
    const stat = f.stats[i];
    if (!stat) return;
    el.textContent = stat.value;
    if (stat.color) el.style.setProperty('color', stat.color);
    else el.style.removeProperty('color');
  });
  shell.dataset.filled = '';
  return true;
}

/**
 * Fills the visible home shell's index card with `answer` (market/indices): the last value, the
 * change and the date, drawn by `indexFigures` as the app's card (src/features/home/components/
 * index-card.tsx), then shows them (`data-filled`). Only for the index the template names (its
 * name is the prerendered one); another is left for the app. Returns whether it did.
 */
export function fillHomeShell(answer: EarlyAnswer, doc: Document = document): boolean {
  const ix = homeIndex(dataOf<ResOf<'market/indices'>>(answer)?.items);
  const card = visibleShell(doc, 'home')?.querySelector<HTMLElement>('.index-card');
  if (!ix || !card || ix.code !== HOME_INDEX_CODE) return false;
  const f = indexFigures(ix);
  const date = card.querySelector('.index-date');
  if (date) date.textContent = (date.textContent ?? '').replace('--', ix.date);
  paint(card, '.index-card-last', f.last, 'color', f.color);
  paint(card, '.index-card-change', f.change, 'color', f.color);
  const basis = card.querySelector<HTMLElement>('.index-card-basis');
  if (basis) basis.dataset.basis = basisOf(ix);
  card.dataset.filled = '';
  return true;
}
