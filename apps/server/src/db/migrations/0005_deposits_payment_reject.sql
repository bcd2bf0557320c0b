ALTER TABLE "payment_orders" DROP CONSTRAINT "payment_orders_status_known";--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "paid_token" text;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "paid_amount" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "reject_reason" text;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD CONSTRAINT "payment_orders_reject_reason" CHECK (("payment_orders"."status" = 'rejected') = ("payment_orders"."reject_reason" is not null));--> statement-breakpoint
ALTER TABLE "payment_orders" ADD CONSTRAINT "payment_orders_status_known" CHECK ("payment_orders"."status" in ('unpaid', 'paid', 'fulfilled', 'rejected'));