/**
 * contract/market.ts securityTypeOf / ruleKindOf: what a code is and which rule class it trades
 * under, checked against every code of the full-market window (server/db/seed-data/full-market).
 */
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ruleKindOf, securityTypeOf } from '../../contract/market';
import { isOnTick } from '../../contract/market-rules';
import { toMinor } from '../../contract/money';
import { parseCsv, seedDataPath, toRecords } from '../../server/market/csv';

describe('securityTypeOf', () => {
  it.each([
    ['2330', undefined, 'stock'],
    ['0050', 'etf', 'etf'],
    ['00679B', undefined, 'etf'],
    ['00631L', undefined, 'etf'],
    ['020012', undefined, 'etn'],
    ['02001L', undefined, 'etn'],
    ['01002T', undefined, 'reit'],
    ['910322', undefined, 'tdr'],
    ['2881A', undefined, 'preferred'],
    ['6547', 'stock', 'stock'],
  ] as const)('%s (%s) → %s', (code, listed, want) => {
    expect(securityTypeOf(code, listed)).toBe(want);
  });

  it('every price of the window lies on the tick table of its rule class', () => {
    const text = gunzipSync(
      readFileSync(seedDataPath('full-market', 'tw_daily_2025-04-02_2025-07-18.csv.gz')),
    ).toString('utf8');
    const off: string[] = [];
    for (const r of toRecords(parseCsv(text))) {
      const kind = ruleKindOf(securityTypeOf(r.code!));
      for (const v of [r.open!, r.high!, r.low!, r.close!])
        if (!isOnTick(toMinor(v), kind)) off.push(`${r.date} ${r.code} ${v}`);
    }
    expect(off).toEqual([]); // 655,768 prices, all on their class's table
  });
});
