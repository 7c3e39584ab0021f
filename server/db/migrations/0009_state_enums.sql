-- Slot reserved for state enums; filled by its change.
SELECT 1;
