CREATE TABLE "node_earnings" (
	"epoch" integer NOT NULL,
	"holding_id" bigint NOT NULL,
	"user_id" integer NOT NULL,
	"mining_income" numeric(78, 0) NOT NULL,
	"dividend_nadi" numeric(78, 0) NOT NULL,
	"dividend_usdt" numeric(78, 0) NOT NULL,
	CONSTRAINT "node_earnings_epoch_holding_id_pk" PRIMARY KEY("epoch","holding_id")
);
--> statement-breakpoint
CREATE TABLE "node_epochs" (
	"epoch" integer PRIMARY KEY NOT NULL,
	"fees_nadi" numeric(78, 0) NOT NULL,
	"fees_usdt" numeric(78, 0) NOT NULL,
	"dividend_nadi" numeric(78, 0) NOT NULL,
	"dividend_usdt" numeric(78, 0) NOT NULL,
	"bonus_paid" numeric(78, 0) NOT NULL,
	"weight_total" bigint NOT NULL,
	"holders" integer NOT NULL,
	"flow_id" bigint,
	"settled_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "node_orders" (
	"payment_order_id" bigint PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"tier_id" integer NOT NULL,
	"request_key" text NOT NULL,
	"pay_asset" text NOT NULL,
	"price" numeric(78, 0),
	"status" text DEFAULT 'unpaid' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"holding_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "node_orders_status" CHECK ("node_orders"."status" in ('unpaid', 'paid', 'expired', 'refunded'))
);
--> statement-breakpoint
CREATE TABLE "node_tiers" (
	"id" serial PRIMARY KEY NOT NULL,
	"level_id" integer NOT NULL,
	"name" text NOT NULL,
	"price_usdt" numeric(78, 0) NOT NULL,
	"total_quota" integer NOT NULL,
	"sold" integer DEFAULT 0 NOT NULL,
	"per_user_limit" integer NOT NULL,
	"gift_power" bigint NOT NULL,
	"machine_rate_bps" integer NOT NULL,
	"withdraw_rate" integer NOT NULL,
	"is_on_sale" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "node_tiers_numbers" CHECK ("node_tiers"."price_usdt" > 0 and "node_tiers"."sold" >= 0 and "node_tiers"."sold" <= "node_tiers"."total_quota" and "node_tiers"."per_user_limit" > 0 and "node_tiers"."gift_power" >= 0 and "node_tiers"."machine_rate_bps" between 0 and 10000 and "node_tiers"."withdraw_rate" >= 0)
);
--> statement-breakpoint
CREATE TABLE "pledge_epochs" (
	"epoch" integer PRIMARY KEY NOT NULL,
	"interest_paid" numeric(78, 0) NOT NULL,
	"released" numeric(78, 0) NOT NULL,
	"positions" integer NOT NULL,
	"flow_id" bigint,
	"settled_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pledge_interest" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"claimable" numeric(78, 0) DEFAULT 0 NOT NULL,
	"claimed_total" numeric(78, 0) DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pledge_interest_not_negative" CHECK ("pledge_interest"."claimable" >= 0 and "pledge_interest"."claimed_total" >= 0)
);
--> statement-breakpoint
CREATE TABLE "pledge_interest_lines" (
	"epoch" integer NOT NULL,
	"position_id" bigint NOT NULL,
	"user_id" integer NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	CONSTRAINT "pledge_interest_lines_epoch_position_id_pk" PRIMARY KEY("epoch","position_id")
);
--> statement-breakpoint
CREATE TABLE "pledge_positions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"day_rate_ppm" integer NOT NULL,
	"start_epoch" integer NOT NULL,
	"end_epoch" integer,
	"status" text DEFAULT 'active' NOT NULL,
	"request_key" text NOT NULL,
	"miner_id" bigint,
	"flow_id" bigint,
	"release_flow_id" bigint,
	"interest_total" numeric(78, 0) DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"redeemed_at" timestamp with time zone,
	CONSTRAINT "pledge_positions_status" CHECK ("pledge_positions"."status" in ('active', 'redeemed')),
	CONSTRAINT "pledge_positions_amount" CHECK ("pledge_positions"."amount" > 0 and "pledge_positions"."interest_total" >= 0)
);
--> statement-breakpoint
CREATE TABLE "pledge_products" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"term_epochs" integer DEFAULT 0 NOT NULL,
	"min_pledge" numeric(78, 0) NOT NULL,
	"day_rate_ppm" integer DEFAULT 0 NOT NULL,
	"epoch_budget" numeric(78, 0),
	"pool_cap" numeric(78, 0) NOT NULL,
	"total" numeric(78, 0) DEFAULT 0 NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pledge_products_kind" CHECK ("pledge_products"."kind" in ('flexible', 'locked', 'joint', 'node')),
	CONSTRAINT "pledge_products_numbers" CHECK ("pledge_products"."term_epochs" >= 0 and "pledge_products"."min_pledge" > 0 and "pledge_products"."day_rate_ppm" >= 0 and "pledge_products"."pool_cap" > 0 and "pledge_products"."total" >= 0 and "pledge_products"."total" <= "pledge_products"."pool_cap" and "pledge_products"."ends_at" > "pledge_products"."starts_at"),
	CONSTRAINT "pledge_products_term" CHECK (("pledge_products"."kind" = 'locked') = ("pledge_products"."term_epochs" > 0)),
	CONSTRAINT "pledge_products_joint" CHECK (("pledge_products"."kind" = 'joint') = ("pledge_products"."epoch_budget" is not null))
);
--> statement-breakpoint
CREATE TABLE "user_nodes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"tier_id" integer NOT NULL,
	"pay_method" text NOT NULL,
	"pay_asset" text NOT NULL,
	"pay_amount" numeric(78, 0) NOT NULL,
	"price" numeric(78, 0),
	"request_key" text,
	"flow_id" bigint,
	"payment_order_id" bigint,
	"miner_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_nodes_pay" CHECK ("user_nodes"."pay_method" in ('balance', 'credit', 'chain') and "user_nodes"."pay_asset" in ('USDT', 'NADI') and "user_nodes"."pay_amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "miners" DROP CONSTRAINT "miners_kind";--> statement-breakpoint
ALTER TABLE "node_orders" ADD CONSTRAINT "node_orders_payment_order_id_payment_orders_id_fk" FOREIGN KEY ("payment_order_id") REFERENCES "public"."payment_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "node_orders" ADD CONSTRAINT "node_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "node_orders" ADD CONSTRAINT "node_orders_tier_id_node_tiers_id_fk" FOREIGN KEY ("tier_id") REFERENCES "public"."node_tiers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pledge_interest" ADD CONSTRAINT "pledge_interest_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pledge_positions" ADD CONSTRAINT "pledge_positions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pledge_positions" ADD CONSTRAINT "pledge_positions_product_id_pledge_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."pledge_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_nodes" ADD CONSTRAINT "user_nodes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_nodes" ADD CONSTRAINT "user_nodes_tier_id_node_tiers_id_fk" FOREIGN KEY ("tier_id") REFERENCES "public"."node_tiers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_nodes" ADD CONSTRAINT "user_nodes_payment_order_id_payment_orders_id_fk" FOREIGN KEY ("payment_order_id") REFERENCES "public"."payment_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "node_earnings_holding_idx" ON "node_earnings" USING btree ("holding_id","epoch");--> statement-breakpoint
CREATE INDEX "node_earnings_user_idx" ON "node_earnings" USING btree ("user_id","epoch");--> statement-breakpoint
CREATE UNIQUE INDEX "node_orders_request_key" ON "node_orders" USING btree ("request_key");--> statement-breakpoint
CREATE INDEX "node_orders_unpaid_idx" ON "node_orders" USING btree ("status","expires_at");--> statement-breakpoint
CREATE INDEX "node_orders_user_idx" ON "node_orders" USING btree ("user_id","tier_id");--> statement-breakpoint
CREATE UNIQUE INDEX "node_tiers_level_key" ON "node_tiers" USING btree ("level_id");--> statement-breakpoint
CREATE INDEX "pledge_interest_lines_user_idx" ON "pledge_interest_lines" USING btree ("user_id","epoch");--> statement-breakpoint
CREATE INDEX "pledge_positions_user_idx" ON "pledge_positions" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "pledge_positions_active_idx" ON "pledge_positions" USING btree ("status","product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pledge_positions_request_key" ON "pledge_positions" USING btree ("request_key");--> statement-breakpoint
CREATE INDEX "user_nodes_user_idx" ON "user_nodes" USING btree ("user_id","tier_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_nodes_request_key" ON "user_nodes" USING btree ("request_key");--> statement-breakpoint
CREATE UNIQUE INDEX "user_nodes_payment_order_key" ON "user_nodes" USING btree ("payment_order_id");--> statement-breakpoint
ALTER TABLE "miners" ADD CONSTRAINT "miners_kind" CHECK ("miners"."kind" in ('device', 'destroy', 'trial', 'node', 'pledge'));--> statement-breakpoint
-- Savings (docs/nodes-and-savings.md): `pledged` holds the principal of active pledges, `savings_interest`
-- the interest accrued and not yet claimed (paid into it from the savings pool at each settlement).
INSERT INTO ledger_accounts (user_id, kind, asset, is_system)
SELECT NULL, k.kind, 'NADI', true FROM (VALUES ('pledged'), ('savings_interest')) AS k(kind);
