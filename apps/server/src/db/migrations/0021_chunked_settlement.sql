-- Chunked epoch settlement (docs/settlement.md): the run and its chunks, each part's stage table, and
-- the system `settlement` accounts that hold an epoch's payouts between its computation and its chunks.
CREATE TABLE "mining_settle_miner_stage" (
	"epoch" integer NOT NULL,
	"miner_id" bigint NOT NULL,
	"user_id" integer NOT NULL,
	"from_status" integer NOT NULL,
	"status" integer NOT NULL,
	"used" numeric(78, 0) NOT NULL,
	"type" text NOT NULL,
	"delta" bigint NOT NULL,
	CONSTRAINT "mining_settle_miner_stage_epoch_miner_id_pk" PRIMARY KEY("epoch","miner_id")
);
--> statement-breakpoint
CREATE TABLE "mining_settle_stage" (
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
	"device_now" numeric(78, 0) NOT NULL,
	"destroy_now" numeric(78, 0) NOT NULL,
	"power_now" numeric(78, 0) NOT NULL,
	"locked" numeric(78, 0) NOT NULL,
	"released" numeric(78, 0) NOT NULL,
	"rate_delta" numeric(78, 0) NOT NULL,
	"has_vesting" boolean NOT NULL,
	CONSTRAINT "mining_settle_stage_epoch_user_id_pk" PRIMARY KEY("epoch","user_id")
);
--> statement-breakpoint
CREATE TABLE "settlement_chunks" (
	"epoch" integer NOT NULL,
	"chunk" integer NOT NULL,
	"lo_user" integer NOT NULL,
	"hi_user" integer NOT NULL,
	"users" integer NOT NULL,
	"nadi" numeric(78, 0) NOT NULL,
	"usdt" numeric(78, 0) NOT NULL,
	"flow_id" bigint,
	"posted_at" timestamp with time zone,
	"duration_ms" integer,
	CONSTRAINT "settlement_chunks_epoch_chunk_pk" PRIMARY KEY("epoch","chunk")
);
--> statement-breakpoint
CREATE TABLE "settlement_runs" (
	"epoch" integer PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"chunks" integer NOT NULL,
	"users" integer NOT NULL,
	"summary" jsonb NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	"compute_ms" integer NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "settlement_runs_status" CHECK ("settlement_runs"."status" in ('posting', 'settled'))
);
--> statement-breakpoint
CREATE TABLE "node_settle_stage" (
	"epoch" integer NOT NULL,
	"holding_id" bigint NOT NULL,
	"user_id" integer NOT NULL,
	"mining_income" numeric(78, 0) NOT NULL,
	"dividend_nadi" numeric(78, 0) NOT NULL,
	"dividend_usdt" numeric(78, 0) NOT NULL,
	CONSTRAINT "node_settle_stage_epoch_holding_id_pk" PRIMARY KEY("epoch","holding_id")
);
--> statement-breakpoint
CREATE TABLE "pledge_settle_interest_stage" (
	"epoch" integer NOT NULL,
	"position_id" bigint NOT NULL,
	"user_id" integer NOT NULL,
	"paid" numeric(78, 0) NOT NULL,
	CONSTRAINT "pledge_settle_interest_stage_epoch_position_id_pk" PRIMARY KEY("epoch","position_id")
);
--> statement-breakpoint
CREATE TABLE "pledge_settle_release_stage" (
	"epoch" integer NOT NULL,
	"position_id" bigint NOT NULL,
	"user_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"miner_id" bigint,
	CONSTRAINT "pledge_settle_release_stage_epoch_position_id_pk" PRIMARY KEY("epoch","position_id")
);
--> statement-breakpoint
CREATE TABLE "team_settle_stage" (
	"epoch" integer NOT NULL,
	"user_id" integer NOT NULL,
	"k" integer NOT NULL,
	"source_user_id" integer NOT NULL,
	"source_depth" integer NOT NULL,
	"source_amount" numeric(78, 0) NOT NULL,
	"rate_bps" integer NOT NULL,
	"lower_numerator" numeric(78, 0) NOT NULL,
	"wanted" numeric(78, 0) NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	CONSTRAINT "team_settle_stage_epoch_user_id_k_source_user_id_pk" PRIMARY KEY("epoch","user_id","k","source_user_id")
);
--> statement-breakpoint
ALTER TABLE "mining_epochs" ALTER COLUMN "settled_at" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "mining_epochs" ADD COLUMN "computed_at" timestamp with time zone;--> statement-breakpoint
UPDATE "mining_epochs" SET "computed_at" = "settled_at";--> statement-breakpoint
ALTER TABLE "mining_epochs" ALTER COLUMN "computed_at" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "mining_settle_miner_stage_user_idx" ON "mining_settle_miner_stage" USING btree ("epoch","user_id");--> statement-breakpoint
CREATE INDEX "settlement_chunks_pending_idx" ON "settlement_chunks" USING btree ("epoch","chunk") WHERE "settlement_chunks"."posted_at" is null;--> statement-breakpoint
CREATE INDEX "node_settle_stage_user_idx" ON "node_settle_stage" USING btree ("epoch","user_id");--> statement-breakpoint
CREATE INDEX "pledge_settle_interest_stage_user_idx" ON "pledge_settle_interest_stage" USING btree ("epoch","user_id");--> statement-breakpoint
CREATE INDEX "pledge_settle_release_stage_user_idx" ON "pledge_settle_release_stage" USING btree ("epoch","user_id");--> statement-breakpoint
INSERT INTO "ledger_accounts" ("user_id", "kind", "asset", "is_system")
SELECT NULL, 'settlement', a.asset, true FROM (VALUES ('NADI'), ('USDT')) AS a(asset);
