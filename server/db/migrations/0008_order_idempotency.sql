-- Slot reserved for order idempotency; filled by its change.
SELECT 1;
