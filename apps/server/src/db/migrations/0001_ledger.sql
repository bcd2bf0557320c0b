CREATE TABLE "exchange_quotes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"from_asset" text NOT NULL,
	"to_asset" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"price" numeric(78, 0) NOT NULL,
	"fee" numeric(78, 0) NOT NULL,
	"receive" numeric(78, 0) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_accounts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"kind" text NOT NULL,
	"asset" text NOT NULL,
	"available" numeric(78, 0) DEFAULT 0 NOT NULL,
	"frozen" numeric(78, 0) DEFAULT 0 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"is_system" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_accounts_user_not_negative" CHECK ("ledger_accounts"."is_system" or ("ledger_accounts"."available" >= 0 and "ledger_accounts"."frozen" >= 0)),
	CONSTRAINT "ledger_accounts_owner_matches" CHECK (("ledger_accounts"."user_id" is null) = "ledger_accounts"."is_system"),
	CONSTRAINT "ledger_accounts_asset_known" CHECK ("ledger_accounts"."asset" in ('NADI', 'USDT'))
);
--> statement-breakpoint
CREATE TABLE "ledger_flows" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"user_id" integer,
	"type" text NOT NULL,
	"params_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_transfers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"flow_id" bigint NOT NULL,
	"type" text NOT NULL,
	"asset" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"debit_account_id" bigint NOT NULL,
	"debit_part" text NOT NULL,
	"credit_account_id" bigint NOT NULL,
	"credit_part" text NOT NULL,
	"debit_available_after" numeric(78, 0) NOT NULL,
	"debit_frozen_after" numeric(78, 0) NOT NULL,
	"debit_version" bigint NOT NULL,
	"credit_available_after" numeric(78, 0) NOT NULL,
	"credit_frozen_after" numeric(78, 0) NOT NULL,
	"credit_version" bigint NOT NULL,
	"memo" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_transfers_amount_positive" CHECK ("ledger_transfers"."amount" > 0),
	CONSTRAINT "ledger_transfers_parts_known" CHECK ("ledger_transfers"."debit_part" in ('available', 'frozen') and "ledger_transfers"."credit_part" in ('available', 'frozen')),
	CONSTRAINT "ledger_transfers_moves" CHECK ("ledger_transfers"."debit_account_id" <> "ledger_transfers"."credit_account_id" or "ledger_transfers"."debit_part" <> "ledger_transfers"."credit_part")
);
--> statement-breakpoint
ALTER TABLE "exchange_quotes" ADD CONSTRAINT "exchange_quotes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_flows" ADD CONSTRAINT "ledger_flows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_flow_id_ledger_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."ledger_flows"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_debit_account_id_ledger_accounts_id_fk" FOREIGN KEY ("debit_account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_credit_account_id_ledger_accounts_id_fk" FOREIGN KEY ("credit_account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exchange_quotes_user_idx" ON "exchange_quotes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "exchange_quotes_expires_idx" ON "exchange_quotes" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_owner_key" ON "ledger_accounts" USING btree ("user_id","kind","asset");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_system_key" ON "ledger_accounts" USING btree ("kind","asset") WHERE "ledger_accounts"."user_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_flows_key" ON "ledger_flows" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "ledger_flows_user_idx" ON "ledger_flows" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "ledger_transfers_debit_idx" ON "ledger_transfers" USING btree ("debit_account_id","id");--> statement-breakpoint
CREATE INDEX "ledger_transfers_credit_idx" ON "ledger_transfers" USING btree ("credit_account_id","id");--> statement-breakpoint
CREATE INDEX "ledger_transfers_flow_idx" ON "ledger_transfers" USING btree ("flow_id");