-- State columns take only the values their contract module names (server/db/schema.ts, where each
-- column is typed with the same list). A NULL in a nullable column (orders.close_reason while the
-- order is open, day_trade_applications.granted_by while pending) passes: CHECK refuses only false.
-- Every value here is one the code writes or the spec names (orders.status 'sold' is the spec's
-- state for allotments sold, which no engine writes yet); tests/integration/state-enums.test.ts
-- compares each constraint with its contract list on PGlite and PostgreSQL.
ALTER TABLE "users" ADD CONSTRAINT "users_role_check" CHECK ("role" IN ('member', 'operator', 'admin'));
--> statement-breakpoint
ALTER TABLE "instruments" ADD CONSTRAINT "instruments_kind_check" CHECK ("kind" IN ('stock', 'etf'));
--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_status_check" CHECK ("status" IN ('pending', 'approved', 'rejected'));
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_check" CHECK ("status" IN ('pending', 'holding', 'closing', 'closed', 'cancelled', 'sold'));
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_side_check" CHECK ("side" IN ('long', 'short'));
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_order_type_check" CHECK ("order_type" IN ('limit', 'market'));
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_time_in_force_check" CHECK ("time_in_force" IN ('ROD', 'IOC', 'FOK'));
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_entry_session_check" CHECK ("entry_session" IN ('regular', 'afterHours'));
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_close_reason_check" CHECK ("close_reason" IN ('user', 'liquidation', 'dayTradeClose', 'ioc', 'fok', 'expired', 'insufficientFunds'));
--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_purpose_check" CHECK ("purpose" IN ('kycFront', 'kycBack', 'receipt'));
--> statement-breakpoint
ALTER TABLE "kyc_records" ADD CONSTRAINT "kyc_records_status_check" CHECK ("status" IN ('review', 'verified', 'rejected'));
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_status_check" CHECK ("status" IN ('pending', 'approved', 'rejected'));
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_state_check" CHECK ("state" IN ('pending', 'done'));
--> statement-breakpoint
ALTER TABLE "risk_events" ADD CONSTRAINT "risk_events_kind_check" CHECK ("kind" IN ('marginCall', 'marginCallCleared', 'liquidation'));
--> statement-breakpoint
ALTER TABLE "day_trade_applications" ADD CONSTRAINT "day_trade_applications_status_check" CHECK ("status" IN ('pending', 'approved', 'rejected'));
--> statement-breakpoint
ALTER TABLE "day_trade_applications" ADD CONSTRAINT "day_trade_applications_granted_by_check" CHECK ("granted_by" IN ('auto', 'operator'));
