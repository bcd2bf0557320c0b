CREATE TABLE "chain_cursors" (
	"name" text PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposit_addresses" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"address_index" integer NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposit_addresses_address_lower" CHECK ("deposit_addresses"."address" = lower("deposit_addresses"."address"))
);
--> statement-breakpoint
CREATE TABLE "deposits" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"user_id" integer NOT NULL,
	"address" text NOT NULL,
	"from_address" text NOT NULL,
	"token" text NOT NULL,
	"asset" text DEFAULT 'NADI' NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"confirmations" integer DEFAULT 0 NOT NULL,
	"flow_id" bigint,
	"credited_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposits_status_known" CHECK ("deposits"."status" in ('pending', 'credited', 'orphaned')),
	CONSTRAINT "deposits_amount_positive" CHECK ("deposits"."amount" > 0),
	CONSTRAINT "deposits_credit_matches" CHECK (("deposits"."status" = 'credited') = ("deposits"."flow_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "payment_orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_key" text NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"asset" text NOT NULL,
	"token" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"status" text DEFAULT 'unpaid' NOT NULL,
	"chain_id" integer NOT NULL,
	"tx_hash" text,
	"log_index" integer,
	"block_number" bigint,
	"block_hash" text,
	"payer" text,
	"confirmations" integer DEFAULT 0 NOT NULL,
	"paid_at" timestamp with time zone,
	"fulfilled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_orders_status_known" CHECK ("payment_orders"."status" in ('unpaid', 'paid', 'fulfilled')),
	CONSTRAINT "payment_orders_amount_positive" CHECK ("payment_orders"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "sender_nonces" (
	"chain_id" integer NOT NULL,
	"address" text NOT NULL,
	"next_nonce" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sender_nonces_chain_id_address_pk" PRIMARY KEY("chain_id","address")
);
--> statement-breakpoint
CREATE TABLE "withdrawals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"asset" text DEFAULT 'NADI' NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"fee" numeric(78, 0) NOT NULL,
	"receive" numeric(78, 0) NOT NULL,
	"to_address" text NOT NULL,
	"status" integer DEFAULT 0 NOT NULL,
	"request_key" text NOT NULL,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"reject_reason" text,
	"chain_id" integer,
	"from_address" text,
	"tx_nonce" integer,
	"tx_hash" text,
	"signed_tx" text,
	"broadcast_at" timestamp with time zone,
	"block_number" bigint,
	"confirmations" integer DEFAULT 0 NOT NULL,
	"fail_reason" text,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "withdrawals_status_known" CHECK ("withdrawals"."status" in (0, 1, 2, 3)),
	CONSTRAINT "withdrawals_amounts" CHECK ("withdrawals"."receive" > 0 and "withdrawals"."fee" >= 0 and "withdrawals"."amount" = "withdrawals"."receive" + "withdrawals"."fee"),
	CONSTRAINT "withdrawals_address_lower" CHECK ("withdrawals"."to_address" = lower("withdrawals"."to_address"))
);
--> statement-breakpoint
ALTER TABLE "deposit_addresses" ADD CONSTRAINT "deposit_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_flow_id_ledger_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."ledger_flows"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD CONSTRAINT "payment_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_address_key" ON "deposit_addresses" USING btree ("address");--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_index_key" ON "deposit_addresses" USING btree ("address_index");--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_chain_tx_log_key" ON "deposits" USING btree ("chain_id","tx_hash","log_index");--> statement-breakpoint
CREATE INDEX "deposits_user_idx" ON "deposits" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "deposits_pending_idx" ON "deposits" USING btree ("status") WHERE "deposits"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "payment_orders_order_key" ON "payment_orders" USING btree ("order_key");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_orders_chain_tx_log_key" ON "payment_orders" USING btree ("chain_id","tx_hash","log_index");--> statement-breakpoint
CREATE INDEX "payment_orders_user_idx" ON "payment_orders" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_request_key" ON "withdrawals" USING btree ("request_key");--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_tx_hash_key" ON "withdrawals" USING btree ("tx_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_sender_nonce_key" ON "withdrawals" USING btree ("chain_id","from_address","tx_nonce");--> statement-breakpoint
CREATE INDEX "withdrawals_user_idx" ON "withdrawals" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "withdrawals_status_idx" ON "withdrawals" USING btree ("status","id");