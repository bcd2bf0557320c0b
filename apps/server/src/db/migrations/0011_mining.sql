CREATE TABLE "activation_code_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"created_by" integer,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activation_codes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"batch_id" integer NOT NULL,
	"device_id" bigint NOT NULL,
	"code_hash" text NOT NULL,
	"state" text DEFAULT 'issued' NOT NULL,
	"expires_at" timestamp with time zone,
	"used_by" integer,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "activation_codes_state" CHECK ("activation_codes"."state" in ('issued', 'used', 'revoked')),
	CONSTRAINT "activation_codes_used" CHECK (("activation_codes"."state" = 'used') = ("activation_codes"."used_by" is not null))
);
--> statement-breakpoint
CREATE TABLE "activations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"device_id" bigint NOT NULL,
	"code_id" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"succeeded_at" timestamp with time zone,
	CONSTRAINT "activations_status" CHECK ("activations"."status" in ('pending', 'success'))
);
--> statement-breakpoint
CREATE TABLE "device_models" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"base_power" bigint NOT NULL,
	"gift_power" bigint DEFAULT 0 NOT NULL,
	"price_usdt" numeric(78, 0) DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_models_power" CHECK ("device_models"."base_power" > 0 and "device_models"."gift_power" >= 0 and "device_models"."price_usdt" >= 0)
);
--> statement-breakpoint
CREATE TABLE "device_uptime" (
	"device_id" bigint NOT NULL,
	"epoch" integer NOT NULL,
	"beats" integer NOT NULL,
	"last_beat_at" timestamp with time zone NOT NULL,
	CONSTRAINT "device_uptime_device_id_epoch_pk" PRIMARY KEY("device_id","epoch")
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"serial" text NOT NULL,
	"public_key" text NOT NULL,
	"model_id" integer NOT NULL,
	"owner_user_id" integer,
	"bound_at" timestamp with time zone,
	"last_counter" bigint DEFAULT 0 NOT NULL,
	"first_seen_at" timestamp with time zone,
	"last_seen_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "economy_params" (
	"name" text NOT NULL,
	"effective_epoch" integer NOT NULL,
	"value" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "economy_params_name_effective_epoch_pk" PRIMARY KEY("name","effective_epoch")
);
--> statement-breakpoint
CREATE TABLE "miners" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"status" integer NOT NULL,
	"device_id" bigint,
	"base_power" bigint NOT NULL,
	"gift_power" bigint DEFAULT 0 NOT NULL,
	"pay_method" text,
	"destroy_nadi" numeric(78, 0),
	"destroy_price" numeric(78, 0),
	"destroy_usdt" numeric(78, 0),
	"budget_usdt" numeric(78, 0) DEFAULT 0 NOT NULL,
	"released_usdt" numeric(78, 0) DEFAULT 0 NOT NULL,
	"flow_id" bigint,
	"starts_epoch" integer NOT NULL,
	"ends_epoch" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "miners_kind" CHECK ("miners"."kind" in ('device', 'destroy', 'trial')),
	CONSTRAINT "miners_status" CHECK ("miners"."status" between 1 and 4),
	CONSTRAINT "miners_device" CHECK (("miners"."kind" = 'device') = ("miners"."device_id" is not null)),
	CONSTRAINT "miners_budget" CHECK ("miners"."base_power" >= 0 and "miners"."gift_power" >= 0 and "miners"."released_usdt" >= 0 and "miners"."released_usdt" <= "miners"."budget_usdt")
);
--> statement-breakpoint
CREATE TABLE "mining_epochs" (
	"epoch" integer PRIMARY KEY NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"emission" numeric(78, 0) NOT NULL,
	"payable" numeric(78, 0) NOT NULL,
	"network_power" bigint NOT NULL,
	"price" numeric(78, 0) NOT NULL,
	"paid" numeric(78, 0) NOT NULL,
	"released" numeric(78, 0) NOT NULL,
	"reduction" numeric(78, 0) NOT NULL,
	"users" integer NOT NULL,
	"flow_id" bigint,
	"settled_at" timestamp with time zone NOT NULL,
	"duration_ms" integer
);
--> statement-breakpoint
CREATE TABLE "mining_results" (
	"epoch" integer NOT NULL,
	"user_id" integer NOT NULL,
	"device_power" bigint NOT NULL,
	"destroy_power" bigint NOT NULL,
	"other_power" bigint NOT NULL,
	"device_income" numeric(78, 0) NOT NULL,
	"destroy_income" numeric(78, 0) NOT NULL,
	"power_income" numeric(78, 0) NOT NULL,
	"reduction" numeric(78, 0) NOT NULL,
	"immediate" numeric(78, 0) NOT NULL,
	"locked" numeric(78, 0) NOT NULL,
	"released" numeric(78, 0) NOT NULL,
	CONSTRAINT "mining_results_epoch_user_id_pk" PRIMARY KEY("epoch","user_id")
);
--> statement-breakpoint
CREATE TABLE "mining_vesting" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"locked" numeric(78, 0) NOT NULL,
	"claimable" numeric(78, 0) NOT NULL,
	"claimed" numeric(78, 0) DEFAULT 0 NOT NULL,
	"rate" numeric(78, 0) NOT NULL,
	"updated_epoch" integer NOT NULL,
	CONSTRAINT "mining_vesting_not_negative" CHECK ("mining_vesting"."locked" >= 0 and "mining_vesting"."claimable" >= 0 and "mining_vesting"."rate" >= 0)
);
--> statement-breakpoint
CREATE TABLE "power_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"type" text NOT NULL,
	"miner_id" bigint,
	"before" bigint NOT NULL,
	"after" bigint NOT NULL,
	"epoch" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_power" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"power" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activation_code_batches" ADD CONSTRAINT "activation_code_batches_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activation_codes" ADD CONSTRAINT "activation_codes_batch_id_activation_code_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."activation_code_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activation_codes" ADD CONSTRAINT "activation_codes_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activation_codes" ADD CONSTRAINT "activation_codes_used_by_users_id_fk" FOREIGN KEY ("used_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activations" ADD CONSTRAINT "activations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activations" ADD CONSTRAINT "activations_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activations" ADD CONSTRAINT "activations_code_id_activation_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."activation_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_uptime" ADD CONSTRAINT "device_uptime_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_model_id_device_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."device_models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "economy_params" ADD CONSTRAINT "economy_params_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "miners" ADD CONSTRAINT "miners_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "miners" ADD CONSTRAINT "miners_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "miners" ADD CONSTRAINT "miners_flow_id_ledger_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."ledger_flows"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mining_epochs" ADD CONSTRAINT "mining_epochs_flow_id_ledger_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."ledger_flows"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mining_results" ADD CONSTRAINT "mining_results_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mining_vesting" ADD CONSTRAINT "mining_vesting_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "power_log" ADD CONSTRAINT "power_log_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "power_log" ADD CONSTRAINT "power_log_miner_id_miners_id_fk" FOREIGN KEY ("miner_id") REFERENCES "public"."miners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_power" ADD CONSTRAINT "user_power_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "activation_codes_hash_key" ON "activation_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "activation_codes_device_key" ON "activation_codes" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "activations_device_key" ON "activations" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "activations_code_key" ON "activations" USING btree ("code_id");--> statement-breakpoint
CREATE INDEX "activations_user_idx" ON "activations" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "device_models_code_key" ON "device_models" USING btree ("code");--> statement-breakpoint
CREATE INDEX "device_uptime_epoch_idx" ON "device_uptime" USING btree ("epoch");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_serial_key" ON "devices" USING btree ("serial");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_public_key_key" ON "devices" USING btree ("public_key");--> statement-breakpoint
CREATE INDEX "devices_owner_idx" ON "devices" USING btree ("owner_user_id");--> statement-breakpoint
CREATE INDEX "miners_user_idx" ON "miners" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "miners_counting_idx" ON "miners" USING btree ("kind","status");--> statement-breakpoint
CREATE UNIQUE INDEX "miners_device_key" ON "miners" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "miners_trial_once_key" ON "miners" USING btree ("user_id") WHERE "miners"."kind" = 'trial';--> statement-breakpoint
CREATE INDEX "mining_results_user_idx" ON "mining_results" USING btree ("user_id","epoch");--> statement-breakpoint
CREATE INDEX "power_log_user_idx" ON "power_log" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "power_log_user_type_idx" ON "power_log" USING btree ("user_id","type","id");--> statement-breakpoint
-- The reward pools and the vesting account (docs/economy.md, "Pools"), one NADI account each.
INSERT INTO ledger_accounts (user_id, kind, asset, is_system)
SELECT NULL, k.kind, 'NADI', true
  FROM (VALUES ('mining_pool'), ('node_pool'), ('savings_pool'), ('referral_pool'), ('signin_pool'), ('vesting')) AS k(kind);
--> statement-breakpoint
-- Genesis: the treasury funds the pools once (the treasury goes negative by what was minted for
-- them, so NADI still sums to zero). The mining pool holds the whole emission schedule:
-- 100,000 NADI × 730 epochs × 2 = 146,000,000 NADI.
-- Written out in plain SQL, the same flow and journal rows as ledger_post_flows would post (one
-- flow, five legs in this order, the balances and versions after each): on a fresh database the
-- ledger's functions are made after every migration has run (docs/sql.md), so no migration calls them.
WITH p(n, kind, amount) AS (
  VALUES (1, 'mining_pool', 146000000000000000000000000::numeric), (2, 'node_pool', 10000000000000000000000000::numeric),
         (3, 'savings_pool', 10000000000000000000000000::numeric), (4, 'referral_pool', 20000000000000000000000000::numeric),
         (5, 'signin_pool', 1000000000000000000000000::numeric)
), flow AS (
  INSERT INTO ledger_flows (idempotency_key, user_id, type, params_hash, created_at)
  VALUES ('genesis:pools', NULL, 'data_adjustment', 'genesis', now())
  RETURNING id
), treasury AS (
  SELECT id, available, frozen, version FROM ledger_accounts WHERE user_id IS NULL AND kind = 'treasury' AND asset = 'NADI'
), legs AS (
  SELECT p.n, p.amount, t.id AS debit_id, t.available - sum(p.amount) OVER (ORDER BY p.n) AS debit_available, t.frozen AS debit_frozen,
         t.version + p.n AS debit_version, a.id AS credit_id, a.available + p.amount AS credit_available, a.frozen AS credit_frozen,
         a.version + 1 AS credit_version
    FROM p
    JOIN ledger_accounts a ON a.user_id IS NULL AND a.kind = p.kind AND a.asset = 'NADI'
    CROSS JOIN treasury t
), journal AS (
  INSERT INTO ledger_transfers (flow_id, type, asset, amount, debit_account_id, debit_part, credit_account_id, credit_part,
    debit_available_after, debit_frozen_after, debit_version, credit_available_after, credit_frozen_after, credit_version, memo, created_at)
  SELECT f.id, 'data_adjustment', 'NADI', l.amount, l.debit_id, 'available', l.credit_id, 'available',
         l.debit_available, l.debit_frozen, l.debit_version, l.credit_available, l.credit_frozen, l.credit_version,
         jsonb_build_object('reason', 'genesis'), now()
    FROM legs l CROSS JOIN flow f
   ORDER BY l.n
  RETURNING 1
), pools AS (
  UPDATE ledger_accounts a SET available = l.credit_available, version = l.credit_version FROM legs l WHERE a.id = l.credit_id
  RETURNING 1
)
UPDATE ledger_accounts a
   SET available = t.available - (SELECT sum(amount) FROM p), version = t.version + (SELECT count(*) FROM p)
  FROM treasury t
 WHERE a.id = t.id AND (SELECT count(*) FROM journal) = 5 AND (SELECT count(*) FROM pools) = 5;
