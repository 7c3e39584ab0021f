/**
 * The static shell's market list, filled before the app has loaded: index.html paints the market
 * screen's frame at once (vite.config.ts `staticShell`), its entry asks for the list's first page
 * (src/api/early.ts), and when that answer comes this draws the rows that fit the screen into the
 * shell, as the app's rows will draw them: each row is a copy of a template the build prerendered
 * with the app's own row (`<template class="shell-row">`, src/app/static-shell.tsx), its texts and
 * colours set from `rankingFigures` (the app's row draws the same). The app's first render then
 * shows the same rows from the same answer (src/features/market/ranking-window.ts), so nothing
 * moves or blinks when it replaces the shell.
 *
 * Nothing happens when the shell is gone (the app rendered first) or the answer is a refusal.
 */
import type { ResOf } from '../../contract/api';
import { columnsFor, rankingFigures } from '../features/market/ranking-figures';
import type { RankingArgs } from '../features/market/ranking-args';
import type { EarlyAnswer } from '../api/early';

/** The replayed date the template rows were prerendered with (replaced by the real one). */
export const TEMPLATE_DATE = '0000-00-00';
/** The symbol the template rows were prerendered with. */
export const TEMPLATE_SYMBOL = '0000';

type ListPage = ResOf<'market/list'>;

/** Sets an element's only text (no-op when the element is missing). */
function text(el: Element | null, value: string): void {
  if (el) el.textContent = value;
}

/**
 * Fills the visible market shell (`html[data-shell]`'s language) with the rows of `answer` that
 * fit the window, for the list `args`. Returns the number of rows drawn (0: nothing done).
 */
export function fillMarketShell(answer: EarlyAnswer, args: RankingArgs, doc: Document = document): number {
  const env = answer.body as { status?: number; data?: ListPage } | null;
  const page = answer.httpStatus === 200 && env?.status === 1 ? env.data : undefined;
  const lang = doc.documentElement.dataset.shell;
  if (!page || (lang !== 'tw' && lang !== 'en')) return 0;
  const shell = doc.querySelector(`.static-shell[data-shell-route="market"][data-shell-lang="${lang}"]`);
  const columns = columnsFor(args.sort);
  const template = shell?.querySelector<HTMLTemplateElement>(`template.shell-row[data-columns="${columns}"]`);
  const slot = shell?.querySelector('.center-fill');
  if (!template || !slot) return 0;

  const notTraded = template.dataset.notTraded ?? '';
  const first = template.content.firstElementChild as HTMLElement | null;
  const rowPx = parseFloat(first?.style.height ?? '') || 56;
  const fit = Math.ceil((doc.defaultView?.innerHeight ?? 844) / rowPx) + 1;
  const rows = doc.createElement('div');
  for (const q of page.items.slice(0, fit)) {
    const row = first?.cloneNode(true) as HTMLElement | undefined;
    if (!row) return 0;
    const f = rankingFigures(q, columns, lang, notTraded);
    text(row.querySelector('.quote-title'), q.name);
    const code = row.querySelector('.quote-code');
    if (code?.firstChild) code.firstChild.textContent = q.symbol;
    const date = page.clock.replayDate ?? q.replayDate;
    const dateEl = row.querySelector('.row-date');
    if (dateEl && date) dateEl.textContent = (dateEl.textContent ?? '').replace(TEMPLATE_DATE, date);
    else dateEl?.remove();
    const last = row.querySelector<HTMLElement>('.quote-last');
    text(last, f.last);
    last?.style.setProperty('color', f.color);
    const change = row.querySelector<HTMLElement>('.quote-change');
    text(change, f.change);
    change?.style.setProperty('color', f.color);
    const pill = row.querySelector<HTMLElement>('.pct-pill');
    text(pill, f.pct);
    pill?.style.setProperty('background', f.color);
    text(row.querySelector('.quote-volume'), f.amount);
    if (!f.traded) row.dataset.traded = 'false';
    rows.append(row);
  }
  slot.replaceWith(rows);
  return rows.childElementCount;
}
