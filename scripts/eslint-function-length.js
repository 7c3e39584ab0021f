/**
 * ESLint rule `size/function-lines`: no function longer than `max` lines (blank and comment
 * lines not counted), except the functions listed in scripts/lint-allow/function-length.json,
 * each of which may not grow past the length listed for it (ADR 0052). It is ESLint's own
 * `max-lines-per-function` (same counting) with that allow-list; the config runs the core rule as
 * a warning at 70 lines and this one as an error at 150.
 *
 * An allow-list entry names the file (repo-relative) and the function as ESLint names it in its
 * message (`function 'createTradingEngine'`, `arrow function 'x'`, `method 'y'`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinRules } from 'eslint/use-at-your-own-risk';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const core = builtinRules.get('max-lines-per-function');

/** The allow-list read unless the rule's `allowList` option names another (repo-relative) file. */
const DEFAULT_ALLOW_LIST = 'scripts/lint-allow/function-length.json';

/** Allowed length by `file>function name`, from the repo-relative JSON file `listPath`. */
function loadAllowList(listPath) {
  const raw = JSON.parse(readFileSync(path.join(ROOT, listPath), 'utf8'));
  return new Map(raw.functions.map((f) => [`${f.file}>${f.name}`, f.lines]));
}

/** Loaded allow-lists by path (read once per lint run). */
const allowLists = new Map();

const rule = {
  meta: {
    type: 'suggestion',
    docs: { description: 'Function length limit with an explicit, shrinking allow-list.' },
    schema: [
      {
        type: 'object',
        properties: { max: { type: 'integer', minimum: 1 }, allowList: { type: 'string' } },
        additionalProperties: false,
      },
    ],
    messages: {
      tooLong:
        '{{name}} has {{lineCount}} lines (blank and comment lines not counted); at most {{max}}: split it at its seams.',
      grew: '{{name}} has {{lineCount}} lines, more than the {{allowed}} scripts/lint-allow/function-length.json allows it: split it, never grow it.',
    },
  },
  create(context) {
    const listPath = context.options[0]?.allowList ?? DEFAULT_ALLOW_LIST;
    if (!allowLists.has(listPath)) allowLists.set(listPath, loadAllowList(listPath));
    const allowList = allowLists.get(listPath);
    const max = context.options[0]?.max ?? 150;
    const file = path.relative(ROOT, path.resolve(context.cwd, context.filename)).split(path.sep).join('/');
    const report = (descriptor) => {
      const name = String(descriptor.data.name);
      const lineCount = Number(descriptor.data.lineCount);
      const allowed = allowList.get(`${file}>${name.charAt(0).toLowerCase()}${name.slice(1)}`);
      if (allowed === undefined)
        context.report({
          node: descriptor.node,
          loc: descriptor.loc,
          messageId: 'tooLong',
          data: { name, lineCount, max },
        });
      else if (lineCount > allowed)
        context.report({
          node: descriptor.node,
          loc: descriptor.loc,
          messageId: 'grew',
          data: { name, lineCount, allowed },
        });
    };
    const options = [{ max, skipBlankLines: true, skipComments: true, IIFEs: true }];
    return core.create(Object.create(context, { options: { value: options }, report: { value: report } }));
  },
};

/** The plugin object for eslint.config.js (`plugins: { size }`). */
export default { rules: { 'function-lines': rule } };
