-- Slot reserved for four eyes; filled by its change.
SELECT 1;
