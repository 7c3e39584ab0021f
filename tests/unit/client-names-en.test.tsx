// @vitest-environment jsdom
/**
 * src/live/names-en.ts: the name shown is the English short name in English when there is one,
 * the Chinese name otherwise and in Chinese; recorded names are kept by symbol and notify
 * subscribers only when something changed.
 */
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { instrumentName, nameEnOf, namesEnOfHits, recordNamesEn, useNameEn } from '../../src/live/names-en';

describe('instrumentName', () => {
  it('English name in English, Chinese name in Chinese or when there is none', () => {
    expect(instrumentName({ name: '台積電', nameEn: 'TSMC' }, 'en')).toBe('TSMC');
    expect(instrumentName({ name: '台積電', nameEn: 'TSMC' }, 'tw')).toBe('台積電');
    expect(instrumentName({ name: '元大台灣50', nameEn: null }, 'en')).toBe('元大台灣50');
    expect(instrumentName({ name: '元大台灣50' }, 'en')).toBe('元大台灣50');
    expect(instrumentName({ name: '元大台灣50', nameEn: '' }, 'en')).toBe('元大台灣50');
  });
});

describe('recorded names', () => {
  it('keeps names by symbol; hits without one are left out', () => {
    expect(
      namesEnOfHits([{ symbol: '9901', nameEn: 'A' }, { symbol: '9902', nameEn: null }, { symbol: '9903' }]),
    ).toEqual({ '9901': 'A' });
    recordNamesEn({ '9911': 'First' });
    expect(nameEnOf('9911')).toBe('First');
    expect(nameEnOf('9912')).toBeNull();
  });

  it('a row re-renders when its name arrives, not for an unchanged record', () => {
    let renders = 0;
    const { result } = renderHook(() => {
      renders++;
      return useNameEn('9921');
    });
    expect(result.current).toBeNull();
    act(() => recordNamesEn({ '9921': 'Second' }));
    expect(result.current).toBe('Second');
    const after = renders;
    act(() => recordNamesEn({ '9921': 'Second' }));
    expect(renders).toBe(after);
  });
});
