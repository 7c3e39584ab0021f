/**
 * Both languages are complete: the same keys in tw and en, every error and success key of the
 * contract, every fund-flow type, and every literal t('...') key used in src/.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_KEYS, SUCCESS_KEYS } from '../../contract/errors';
import { FUND_FLOW_TYPES } from '../../contract/funds';
import { CANDLE_PERIODS, MARKET_SORTS } from '../../contract/market';
import { POSITION_TABS } from '../../contract/trading';
import { en, tw } from './support/strings';
import { CLIENT_ERROR_KEYS } from '../../src/lib/messages';

type Tree = { [k: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

/** Plural forms collapse to their base key (en has lots_one/lots_other where tw has lots). */
const base = (k: string) => k.replace(/_(zero|one|two|few|many|other)$/, '');

// All three parts: the first screen's, the rest of the app's (locales/more/), the console's.
const TW = flatten(tw as Tree);
const EN = flatten(en as Tree);
const has = (m: Map<string, string>, k: string) => m.has(k) || m.has(`${k}_other`);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? sourceFiles(p) : /\.(ts|tsx)$/.test(f) ? [p] : [];
  });
}

describe('locales', () => {
  it('tw and en have the same keys', () => {
    const twKeys = new Set(Array.from(TW.keys(), base));
    const enKeys = new Set(Array.from(EN.keys(), base));
    expect([...twKeys].filter((k) => !enKeys.has(k))).toEqual([]);
    expect([...enKeys].filter((k) => !twKeys.has(k))).toEqual([]);
  });

  it('no empty strings', () => {
    for (const [k, v] of [...TW, ...EN]) expect(v.trim(), k).not.toBe('');
  });

  it.each([
    ['errors', [...ERROR_KEYS, ...CLIENT_ERROR_KEYS]],
    ['success', SUCCESS_KEYS],
    ['fundFlow', FUND_FLOW_TYPES],
    ['period', CANDLE_PERIODS],
    ['market.sort', MARKET_SORTS],
    ['position.tab', POSITION_TABS],
    ['orderStatus', ['pending', 'holding', 'closed', 'cancelled']],
    ['kyc', ['unverified', 'review', 'verified', 'rejected']],
    ['depositStatus', ['pending', 'approved', 'rejected']],
    ['conn', ['stopped', 'connecting', 'live', 'reconnecting', 'polling']],
  ])('covers every %s key', (prefix, keys) => {
    for (const k of keys) {
      expect(has(TW, `${prefix}.${k}`), `tw ${prefix}.${k}`).toBe(true);
      expect(has(EN, `${prefix}.${k}`), `en ${prefix}.${k}`).toBe(true);
    }
  });

  it("has every literal t('…') key used in src/", () => {
    const used = new Set<string>();
    for (const f of sourceFiles(path.resolve(__dirname, '../../src'))) {
      for (const m of readFileSync(f, 'utf8').matchAll(/\bt\(\s*'([a-zA-Z][\w.]*)'/g)) used.add(m[1]!);
    }
    // Keys passed around as values ('validation.noCapitals', tab titles, ...): any quoted string
    // that starts with a top-level namespace of the locale files.
    const namespaces = Object.keys(tw).join('|');
    const keyLike = new RegExp(`'((?:${namespaces})\\.[a-zA-Z][\\w.]*)'`, 'g');
    for (const f of sourceFiles(path.resolve(__dirname, '../../src'))) {
      for (const m of readFileSync(f, 'utf8').matchAll(keyLike)) if (!m[1]!.endsWith('.')) used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(100);
    const missing = [...used].filter((k) => !has(TW, k) || !has(EN, k));
    expect(missing).toEqual([]);
  });
});
