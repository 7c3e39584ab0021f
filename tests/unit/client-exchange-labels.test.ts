/**
 * The exchange's own Chinese labels the screens show (an offering's market type, an ex-rights
 * event's kind) are translated: every value the shipped data carries has a key, the key has a
 * string in tw and en, and the English one is not the Chinese text.
 */
import { describe, expect, it } from 'vitest';
import { EX_RIGHTS_KINDS } from '../../contract/dividends';
import { IPO_MARKET_TYPES } from '../../contract/ipo';
import { exRightsKindLabel } from '../../src/features/dividends/components/kind';
import { marketTypeLabel } from '../../src/features/ipo/components/market-type';
import { readCsvRecordsSync, seedDataPath } from '../../server/market/csv';
import { en, tw } from './support/strings';

const csv = (file: string) => readCsvRecordsSync(seedDataPath(file));

/** A t() over one language's strings (nested keys, defaultValue when missing). */
const tOf =
  (strings: unknown) =>
  (key: string, v?: Record<string, unknown>): string => {
    let node: unknown = strings;
    for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
    return typeof node === 'string' ? node : String(v?.defaultValue ?? key);
  };

describe('exchange labels in both languages', () => {
  it('every IPO market type in the data is translated', () => {
    const types = new Set(csv('corporate-actions/ipo_subscriptions.csv').map((r) => r.market!));
    expect(types.size).toBeGreaterThan(5);
    for (const type of types) {
      expect(IPO_MARKET_TYPES[type], type).toBeDefined();
      const english = marketTypeLabel(type, tOf(en));
      expect(english, type).not.toMatch(/[\u4e00-\u9fff]/);
      expect(marketTypeLabel(type, tOf(tw))).toBe(type);
    }
    expect(marketTypeLabel('初上市', tOf(en))).toBe('TWSE IPO');
    expect(marketTypeLabel('未知類別', tOf(en))).toBe('未知類別');
  });

  it('every ex-rights kind in the data is translated', () => {
    const kinds = new Set(csv('full-market/ex_rights_2025-04-01_2025-07-22.csv').map((r) => r.kind!));
    expect([...kinds].sort()).toEqual(Object.keys(EX_RIGHTS_KINDS).sort());
    for (const kind of kinds) {
      expect(exRightsKindLabel(kind, tOf(en)), kind).not.toMatch(/[\u4e00-\u9fff]/);
      expect(exRightsKindLabel(kind, tOf(tw))).toMatch(/^除/);
    }
    expect(exRightsKindLabel('息', tOf(en))).toBe('Ex-dividend (cash)');
  });
});

describe('signed figures are named profit and loss', () => {
  // Each can be negative (docs/glossary.md "Realised P&L"; a mentor's figures from the ledger).
  const signed = [
    ['uc', 'profit'],
    ['follow', 'totalProfit'],
    ['follow', 'yesterdayProfit'],
    ['follow', 'historicalProfit'],
  ] as const;
  it.each(signed)('%s.%s', (group, key) => {
    const strings = { en, tw } as unknown as Record<string, Record<string, Record<string, string>>>;
    expect(strings.en![group]![key]).toContain('P&L');
    expect(strings.en![group]![key]).not.toMatch(/profit/i);
    expect(strings.tw![group]![key]).toContain('損益');
  });
});
