/**
 * Database schema (Drizzle, PostgreSQL dialect; runs on PGlite embedded and on a PostgreSQL server),
 * one file per area (`server/modules/<area>`), all re-exported here: import tables from
 * `server/db/schema`. Money columns are bigint minor units (TWD: 1 NT$ = 100); quantities in shares;
 * times timestamptz. Migrations are generated from these files by drizzle-kit into
 * server/db/migrations (drizzle.config.ts). Foreign keys point one way between the files (every
 * area to auth's `users`, market's `instruments`, trading's `orders`, identity's `uploads` …), so
 * no two schema files import each other; shared column helpers are in ./columns.
 *
 * State columns (a status, state, kind, role, side...) are typed with the value list their contract
 * module exports (`text(name, { enum })`) and carry a CHECK constraint naming the same values
 * (`<table>_<column>_check`, migration 0009), so neither the code nor a hand-written SQL statement
 * can store a state the contract does not know. tests/integration/state-enums.test.ts compares
 * each constraint with its list.
 */
export * from './account';
export * from './auth';
export * from './common';
export * from './copy-trading';
export * from './corporate-actions';
export * from './credit';
export * from './day-trading';
export * from './dividends';
export * from './funds';
export * from './fx';
export * from './identity';
export * from './ipo';
export * from './ledger';
export * from './lending';
export * from './market';
export * from './news';
export * from './notices';
export * from './primary';
export * from './rewards';
export * from './risk';
export * from './search';
export * from './support';
export * from './trading';
export * from './wallet';
