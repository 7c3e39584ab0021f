-- Slot reserved for auth hardening; filled by its change.
SELECT 1;
