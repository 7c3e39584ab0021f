/**
 * One word per area (issue 32): a product area has the same name in the client's features
 * (`src/features/<area>`), the server's modules (`server/modules/<area>`) and the contract
 * (`contract/<area>.ts`), and its tables, if any, are in `server/db/schema/<area>.ts` (re-exported by
 * the folder's index). The exceptions below are the whole list, each with its reason; a new
 * area on one side only, or an exception that no longer applies, fails here. docs/glossary.md
 * maps the spec's route names to these words.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const dirs = (p: string) =>
  readdirSync(p, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();

/** Screens with no server module of their own. */
const CLIENT_ONLY: Record<string, string> = {
  etf: 'ETF screens over the market module (market/list filters, market/detail)',
  home: "the landing screen, composed of other areas' answers",
  position: "a position's screens over the trading module's endpoints",
};

/** Server modules with no feature folder of their own. */
const SERVER_ONLY: Record<string, string> = {
  admin: 'the operator console is its own app (src/admin)',
  common: 'shared handler plumbing and site pages',
  'corporate-actions': 'runs on the market calendar; its effects show in positions and news',
  'four-eyes': 'a second operator approves large changes (console only)',
  fx: 'exchange rates, shown and used by the funds screens',
  ledger: 'double-entry postings behind every balance',
};

/** Server modules whose endpoints are declared in another area's contract file, or have none. */
const NO_CONTRACT: Record<string, string> = {
  'four-eyes': 'no endpoints of its own (admin.ts declares the approvals)',
  fx: 'its endpoints are the funds area’s (contract/funds.ts)',
  ledger: 'no endpoints',
};

/** Files of server/db/schema that hold no area's tables. */
const SCHEMA_SHARED: Record<string, string> = {
  columns: 'column helpers every area uses',
  index: 're-exports every area',
};

const features = dirs('src/features');
const modules = dirs('server/modules');
const schemaFiles = readdirSync('server/db/schema')
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -'.ts'.length))
  .sort();

describe('area names', () => {
  it('every feature has a server module of the same name, or is a listed client-only area', () => {
    expect(features.filter((a) => !modules.includes(a) && !(a in CLIENT_ONLY))).toEqual([]);
  });

  it('every server module has a feature of the same name, or is a listed server-only area', () => {
    expect(modules.filter((a) => !features.includes(a) && !(a in SERVER_ONLY))).toEqual([]);
  });

  it('every server module has a contract file of the same name, or is listed without one', () => {
    expect(modules.filter((a) => !existsSync(`contract/${a}.ts`) && !(a in NO_CONTRACT))).toEqual([]);
  });

  it('every schema file is named as a server module, or is a listed shared file', () => {
    expect(schemaFiles.filter((a) => !modules.includes(a) && !(a in SCHEMA_SHARED))).toEqual([]);
  });

  it('the schema index re-exports every area file', () => {
    const index = readFileSync('server/db/schema/index.ts', 'utf8');
    const exported = [...index.matchAll(/^export \* from '\.\/([\w-]+)';$/gm)].map((m) => m[1]).sort();
    expect(exported).toEqual(schemaFiles.filter((a) => !(a in SCHEMA_SHARED)));
  });

  it('lists no exception that no longer applies', () => {
    expect(Object.keys(CLIENT_ONLY).filter((a) => !features.includes(a) || modules.includes(a))).toEqual([]);
    expect(Object.keys(SERVER_ONLY).filter((a) => !modules.includes(a) || features.includes(a))).toEqual([]);
    expect(Object.keys(NO_CONTRACT).filter((a) => existsSync(`contract/${a}.ts`))).toEqual([]);
    expect(Object.keys(SCHEMA_SHARED).filter((a) => !schemaFiles.includes(a) || modules.includes(a))).toEqual(
      [],
    );
  });
});
