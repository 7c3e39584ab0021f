/**
 * Import boundaries (scripts/eslint-import-boundaries.js) through the repository's own ESLint
 * config: each fixture in tests/lint/fixtures is linted as if it lived at the path on its
 * `// lint-as:` line and must produce exactly the boundary errors on its `// expect:` line, in
 * line order (an empty list: the imports are allowed). The fixtures carry a non-source extension,
 * so neither `npm run lint` nor tsc sees them at their real path.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixtureDir = path.join(root, 'tests/lint/fixtures');
const RULE = 'boundaries/imports';

interface Fixture {
  name: string;
  lintAs: string;
  expected: string[];
  code: string;
}

function readFixture(name: string): Fixture {
  const code = readFileSync(path.join(fixtureDir, name), 'utf8');
  const lintAs = /^\/\/ lint-as: (\S+)$/m.exec(code)?.[1];
  const expectLine = /^\/\/ expect:(.*)$/m.exec(code)?.[1];
  if (!lintAs || expectLine === undefined) throw new Error(`${name}: missing lint-as or expect line`);
  return { name, lintAs, expected: expectLine.split(/\s+/).filter(Boolean), code };
}

const fixtures = readdirSync(fixtureDir)
  .filter((f) => f.endsWith('.fixture'))
  .sort()
  .map(readFixture);

/** The rule's message ids, read from the plugin itself (every one needs a fixture). */
const rulePath = pathToFileURL(path.join(root, 'scripts/eslint-import-boundaries.js')).href;
const plugin = (await import(rulePath)) as {
  default: { rules: { imports: { meta: { messages: Record<string, string> } } } };
};
const ruleIds = Object.keys(plugin.default.rules.imports.meta.messages);

const eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, 'eslint.config.js') });

async function boundaryErrors(code: string, lintAs: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, lintAs) });
  if (!result) throw new Error('no lint result');
  const fatal = result.messages.filter((m) => m.fatal);
  expect(fatal).toEqual([]);
  return result.messages.filter((m) => m.ruleId === RULE && m.severity === 2).map((m) => m.messageId ?? '');
}

describe('import boundaries (repo ESLint config)', () => {
  it('has fixtures for every rule, violating and allowed', () => {
    const ids = new Set(fixtures.flatMap((f) => f.expected));
    expect([...ids].sort()).toEqual([...ruleIds].sort());
    expect(fixtures.some((f) => f.expected.length === 0)).toBe(true);
  });

  for (const f of fixtures) {
    it(`${f.name} as ${f.lintAs}: ${f.expected.length ? f.expected.join(', ') : 'allowed'}`, async () => {
      expect(await boundaryErrors(f.code, f.lintAs)).toEqual(f.expected);
    });
  }

  it('judges a specifier by where it lands: ../../trading/… is a feature from a feature, shared from src/live', async () => {
    const code =
      "import { OrderPanel } from '../../trading/components/order-panel';\nexport { OrderPanel };\n";
    expect(await boundaryErrors(code, 'src/features/position/components/x.tsx')).toEqual([
      'featureToFeature',
    ]);
    expect(await boundaryErrors(code, 'src/live/components/x.tsx')).toEqual([]);
    const entry = "import { OrderPanel } from '../../trading';\nexport { OrderPanel };\n";
    expect(await boundaryErrors(entry, 'src/features/position/components/x.tsx')).toEqual([]);
    expect(await boundaryErrors(entry, 'src/live/components/x.tsx')).toEqual([]);
  });

  it('the real cross-feature import goes through the public entry; the internal file is refused', async () => {
    const ticket = 'src/features/day-trading/components/day-trade-ticket.tsx';
    const code = readFileSync(path.join(root, ticket), 'utf8');
    expect(await boundaryErrors(code, ticket)).toEqual([]);
    const reverted = code.replace("'../../trading'", "'../../trading/components/order-panel'");
    expect(reverted).not.toBe(code);
    expect(await boundaryErrors(reverted, ticket)).toEqual(['featureToFeature']);
  });

  it('the real files the boundaries moved code out of pass, and the old imports are refused again', async () => {
    const cases = [
      {
        file: 'server/modules/common/context.ts',
        from: "import type { MarketFeed } from '../../market/feed';",
        back: "import type { TradingEngine } from '../trading/engine';",
        expected: ['commonToModule'],
      },
      {
        file: 'server/modules/auth/password-reset.ts',
        from: "import { audit } from '../common/audit';",
        back: "import { audit } from '../admin/handlers';",
        expected: ['moduleCycle'],
      },
      {
        file: 'server/modules/news/cover.ts',
        from: "import { readFile } from 'node:fs/promises';",
        back: "import type { FastifyInstance } from 'fastify';",
        expected: ['fastifyOutsideTransport'],
      },
      {
        file: 'server/modules/support/hub.ts',
        from: "import { createRateLimiter, type RateLimiter } from '../common/rate-limiter';",
        back: "import { createRateLimiter, type RateLimiter } from '../../realtime/budget';",
        expected: ['serverLayer'],
      },
      {
        file: 'server/market/import.ts',
        from: "import { EX_RIGHTS_FILE } from './reference';",
        back: "import { EX_RIGHTS_FILE } from '../modules/corporate-actions/reference';",
        expected: ['serverLayer'],
      },
    ];
    for (const c of cases) {
      const code = readFileSync(path.join(root, c.file), 'utf8');
      expect(await boundaryErrors(code, c.file), c.file).toEqual([]);
      const reverted = code.replace(c.from, `${c.from}\n${c.back}`);
      expect(reverted, c.file).not.toBe(code);
      expect(await boundaryErrors(reverted, c.file), c.file).toEqual(c.expected);
    }
  });
});
