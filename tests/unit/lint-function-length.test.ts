/**
 * Function length (scripts/eslint-function-length.js, ADR 0052) through the repository's own
 * ESLint config: past 70 lines a warning (core `max-lines-per-function`), past 150 an error
 * (`size/function-lines`) unless scripts/lint-allow/function-length.json lists the function, which
 * then may not grow past its listed length. Blank and comment lines do not count.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, 'eslint.config.js') });
/** A fixed allow-list for the allow-list case, so it holds however short the real list gets. */
const FIXTURE_LIST = 'tests/unit/support/function-length-allow.json';
const fixture = new ESLint({
  cwd: root,
  overrideConfigFile: path.join(root, 'eslint.config.js'),
  overrideConfig: [{ rules: { 'size/function-lines': ['error', { max: 150, allowList: FIXTURE_LIST }] } }],
});
const allowList = JSON.parse(readFileSync(path.join(root, FIXTURE_LIST), 'utf8')) as {
  functions: { file: string; name: string; lines: number }[];
};

/** A function `name` of exactly `lines` counted lines (its braces included), padded with blank and comment lines. */
function fn(name: string, lines: number): string {
  const body = Array.from({ length: lines - 4 }, (_, i) => `  n += ${i};\n\n  // a comment\n`).join('');
  return `export function ${name}(): number {\n  let n = 0;\n${body}  return n;\n}\n`;
}

async function lengthMessages(code: string, filePath: string, linter = eslint) {
  const [result] = await linter.lintText(code, { filePath: path.join(root, filePath) });
  if (!result) throw new Error('no lint result');
  expect(result.messages.filter((m) => m.fatal)).toEqual([]);
  return result.messages
    .filter((m) => m.ruleId === 'max-lines-per-function' || m.ruleId === 'size/function-lines')
    .map((m) => `${m.ruleId}:${m.severity}:${m.messageId ?? ''}`);
}

describe('function length (repo ESLint config)', () => {
  it('counts code lines only: 70 pass, 71 warn, 150 warn, 151 fail', async () => {
    const file = 'server/modules/funds/sizes.ts';
    expect(await lengthMessages(fn('f', 70), file)).toEqual([]);
    expect(await lengthMessages(fn('f', 71), file)).toEqual(['max-lines-per-function:1:exceed']);
    expect(await lengthMessages(fn('f', 150), file)).toEqual(['max-lines-per-function:1:exceed']);
    expect(await lengthMessages(fn('f', 151), file)).toEqual([
      'max-lines-per-function:1:exceed',
      'size/function-lines:2:tooLong',
    ]);
  });

  it('applies to src/ and workers/ as well as server/', async () => {
    for (const file of ['src/lib/sizes.ts', 'workers/sizes.ts']) {
      expect(await lengthMessages(fn('f', 151), file), file).toContain('size/function-lines:2:tooLong');
    }
  });

  it('an allow-listed function passes at its listed length and fails once it grows', async () => {
    const entry = allowList.functions[0]!;
    const name = entry.name.slice("function '".length, -1);
    expect(await lengthMessages(fn(name, entry.lines), entry.file, fixture)).toEqual([
      'max-lines-per-function:1:exceed',
    ]);
    expect(await lengthMessages(fn(name, entry.lines + 1), entry.file, fixture)).toEqual([
      'max-lines-per-function:1:exceed',
      'size/function-lines:2:grew',
    ]);
    // The same name elsewhere is not allow-listed.
    expect(await lengthMessages(fn(name, 151), 'src/admin/other.tsx', fixture)).toContain(
      'size/function-lines:2:tooLong',
    );
    // The repository's own list does not hold it.
    expect(await lengthMessages(fn(name, entry.lines), entry.file)).toContain(
      'size/function-lines:2:tooLong',
    );
  });
});
