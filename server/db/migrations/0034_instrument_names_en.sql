-- instruments.name_en: the exchange's published English short name (TWSE/TPEx 英文簡稱, e.g.
-- 2330 → 'TSMC'), from seed-data/reference/instrument_names_en.csv (its README: provenance);
-- null where the exchange publishes none in that snapshot (ETFs, ETNs, …). The importer fills it
-- on existing rows too (server/market/import.ts importInstrumentNamesEn).
ALTER TABLE "instruments" ADD COLUMN "name_en" text;
