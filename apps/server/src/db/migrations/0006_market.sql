CREATE TABLE "market_orders" (
	"id" bigint PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"client_order_id" text,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"type" text NOT NULL,
	"price" numeric(78, 0),
	"quantity" numeric(78, 0),
	"quote_amount" numeric(78, 0),
	"filled" numeric(78, 0) DEFAULT 0 NOT NULL,
	"quote_filled" numeric(78, 0) DEFAULT 0 NOT NULL,
	"fee_numerator" numeric(78, 0) DEFAULT 0 NOT NULL,
	"fee" numeric(78, 0) DEFAULT 0 NOT NULL,
	"frozen" numeric(78, 0) NOT NULL,
	"frozen_remaining" numeric(78, 0) NOT NULL,
	"status" text NOT NULL,
	"cancel_reason" text,
	"seq" bigint NOT NULL,
	"last_seq" bigint NOT NULL,
	"ts_ms" bigint NOT NULL,
	"params_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "market_orders_side_known" CHECK ("market_orders"."side" in ('buy', 'sell')),
	CONSTRAINT "market_orders_type_known" CHECK ("market_orders"."type" in ('limit', 'market')),
	CONSTRAINT "market_orders_status_known" CHECK ("market_orders"."status" in ('pending', 'partial', 'filled', 'cancelled')),
	CONSTRAINT "market_orders_amounts" CHECK ("market_orders"."filled" >= 0 and "market_orders"."quote_filled" >= 0 and "market_orders"."fee" >= 0 and "market_orders"."frozen_remaining" >= 0 and "market_orders"."frozen_remaining" <= "market_orders"."frozen"),
	CONSTRAINT "market_orders_open_unfilled" CHECK ("market_orders"."status" not in ('pending', 'partial') or "market_orders"."quantity" is null or "market_orders"."filled" < "market_orders"."quantity"),
	CONSTRAINT "market_orders_finished_released" CHECK ("market_orders"."status" in ('pending', 'partial') or "market_orders"."frozen_remaining" = 0)
);
--> statement-breakpoint
CREATE TABLE "market_trades" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"symbol" text NOT NULL,
	"seq" bigint NOT NULL,
	"maker_order_id" bigint NOT NULL,
	"taker_order_id" bigint NOT NULL,
	"maker_user_id" integer NOT NULL,
	"taker_user_id" integer NOT NULL,
	"taker_side" text NOT NULL,
	"price" numeric(78, 0) NOT NULL,
	"quantity" numeric(78, 0) NOT NULL,
	"quote" numeric(78, 0) NOT NULL,
	"maker_fee" numeric(78, 0) NOT NULL,
	"taker_fee" numeric(78, 0) NOT NULL,
	"ts_ms" bigint NOT NULL,
	"flow_id" bigint,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "market_trades_amounts" CHECK ("market_trades"."price" > 0 and "market_trades"."quantity" > 0 and "market_trades"."quote" > 0 and "market_trades"."maker_fee" >= 0 and "market_trades"."taker_fee" >= 0)
);
--> statement-breakpoint
ALTER TABLE "market_orders" ADD CONSTRAINT "market_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_trades" ADD CONSTRAINT "market_trades_maker_order_id_market_orders_id_fk" FOREIGN KEY ("maker_order_id") REFERENCES "public"."market_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_trades" ADD CONSTRAINT "market_trades_taker_order_id_market_orders_id_fk" FOREIGN KEY ("taker_order_id") REFERENCES "public"."market_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_trades" ADD CONSTRAINT "market_trades_maker_user_id_users_id_fk" FOREIGN KEY ("maker_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_trades" ADD CONSTRAINT "market_trades_taker_user_id_users_id_fk" FOREIGN KEY ("taker_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_trades" ADD CONSTRAINT "market_trades_flow_id_ledger_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."ledger_flows"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "market_orders_client_key" ON "market_orders" USING btree ("user_id","client_order_id");--> statement-breakpoint
CREATE INDEX "market_orders_user_idx" ON "market_orders" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "market_orders_open_idx" ON "market_orders" USING btree ("symbol","id") WHERE "market_orders"."status" in ('pending', 'partial');--> statement-breakpoint
CREATE UNIQUE INDEX "market_trades_seq_key" ON "market_trades" USING btree ("symbol","seq");--> statement-breakpoint
CREATE INDEX "market_trades_ts_idx" ON "market_trades" USING btree ("symbol","ts_ms");--> statement-breakpoint
CREATE INDEX "market_trades_maker_idx" ON "market_trades" USING btree ("maker_user_id","id");--> statement-breakpoint
CREATE INDEX "market_trades_taker_idx" ON "market_trades" USING btree ("taker_user_id","id");