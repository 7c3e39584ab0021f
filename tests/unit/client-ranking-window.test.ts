/**
 * The ranking window's merge (src/features/market/ranking-window.ts): pages cover the visible
 * rows and their overscan; a fresh order replaces the fetched pages' rows; a held list (touched or
 * scrolling) keeps every row it shows and only fills rows it did not know yet.
 */
import { describe, expect, it } from 'vitest';
import { mergePages, pagesFor } from '../../src/features/market/ranking-window';
import { rankingPage as page } from './support/ranking-page';

describe('pagesFor', () => {
  it('covers the visible rows and five either side', () => {
    expect(pagesFor(0, 12)).toEqual([1]);
    expect(pagesFor(40, 52)).toEqual([1, 2]);
    expect(pagesFor(1000, 1013)).toEqual([20, 21]);
    expect(pagesFor(1010, 1023)).toEqual([21]);
    expect(pagesFor(1047, 1060)).toEqual([21, 22]);
  });
});

describe('mergePages', () => {
  const first = mergePages(null, [page(1, 3, ['A', 'B', 'C'], 6)], false);

  it('places pages at their indices, unknown rows undefined', () => {
    expect(first.symbols).toEqual(['A', 'B', 'C', undefined, undefined, undefined]);
    expect(first.total).toBe(6);
    expect(first.replayDate).toBe('2025-05-02');
  });

  it('a free list takes the fresh order', () => {
    const next = mergePages(first, [page(1, 3, ['C', 'A', 'B'], 6, 2)], false);
    expect(next.symbols.slice(0, 3)).toEqual(['C', 'A', 'B']);
  });

  it('a held list keeps its rows and only fills unknown ones', () => {
    const next = mergePages(
      first,
      [page(1, 3, ['C', 'A', 'B'], 6, 2), page(2, 3, ['D', 'E', 'F'], 6, 2)],
      true,
    );
    expect(next.symbols).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
  });

  it('follows the total of the latest snapshot (a filter or the market shrank)', () => {
    const next = mergePages(first, [page(1, 3, ['B', 'C'], 2, 3)], false);
    expect(next.symbols).toEqual(['B', 'C']);
  });

  it('returns the same view when a refresh changed nothing, a new one when it did', () => {
    expect(mergePages(first, [page(1, 3, ['A', 'B', 'C'], 6, 2)], false)).toBe(first);
    expect(mergePages(first, [page(1, 3, ['A', 'B', 'C'], 6, 2)], true)).toBe(first);
    expect(mergePages(first, [page(1, 3, ['A', 'C', 'B'], 6, 2)], false)).not.toBe(first);
    expect(mergePages(first, [page(1, 3, ['A', 'B', 'C'], 7, 2)], false).total).toBe(7);
  });
});
