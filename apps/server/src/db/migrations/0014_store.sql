CREATE TABLE "addresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"receiver_name" text NOT NULL,
	"phone_country" text NOT NULL,
	"phone" text NOT NULL,
	"area" text NOT NULL,
	"detail" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "performance_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"ref" text NOT NULL,
	"usdt" numeric(78, 0) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "performance_events_kind" CHECK ("performance_events"."kind" in ('device', 'node', 'destroy'))
);
--> statement-breakpoint
CREATE TABLE "store_order_devices" (
	"device_id" bigint PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "store_order_items" (
	"order_id" bigint NOT NULL,
	"product_id" integer NOT NULL,
	"model_id" integer NOT NULL,
	"name" text NOT NULL,
	"image" text NOT NULL,
	"price_usdt" numeric(78, 0) NOT NULL,
	"quantity" integer NOT NULL,
	"unit_power" bigint NOT NULL,
	CONSTRAINT "store_order_items_order_id_product_id_pk" PRIMARY KEY("order_id","product_id"),
	CONSTRAINT "store_order_items_quantity" CHECK ("store_order_items"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "store_orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_no" text NOT NULL,
	"user_id" integer NOT NULL,
	"request_key" text NOT NULL,
	"status" text NOT NULL,
	"pay_method" text NOT NULL,
	"pay_asset" text NOT NULL,
	"total_usdt" numeric(78, 0) NOT NULL,
	"pay_amount" numeric(78, 0) NOT NULL,
	"price" numeric(78, 0),
	"item_count" integer NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"receiver_name" text NOT NULL,
	"phone" text NOT NULL,
	"area" text NOT NULL,
	"detail" text NOT NULL,
	"payment_order_id" bigint,
	"flow_id" bigint,
	"refund_flow_id" bigint,
	"reward_user_id" integer,
	"reward_nadi" numeric(78, 0) DEFAULT 0 NOT NULL,
	"courier_company" text,
	"courier_number" text,
	"cancel_reason" text,
	"expires_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"shipped_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"is_auto_confirmed" boolean DEFAULT false NOT NULL,
	"cancelled_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_orders_status" CHECK ("store_orders"."status" in ('unpaid', 'to_ship', 'to_receive', 'completed', 'cancelled', 'refunded')),
	CONSTRAINT "store_orders_pay" CHECK ("store_orders"."pay_method" in ('balance', 'credit', 'chain') and "store_orders"."pay_asset" in ('USDT', 'NADI')),
	CONSTRAINT "store_orders_amounts" CHECK ("store_orders"."total_usdt" > 0 and "store_orders"."pay_amount" > 0 and "store_orders"."reward_nadi" >= 0 and "store_orders"."item_count" > 0),
	CONSTRAINT "store_orders_chain" CHECK (("store_orders"."pay_method" = 'chain') = ("store_orders"."payment_order_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "store_products" (
	"id" serial PRIMARY KEY NOT NULL,
	"model_id" integer NOT NULL,
	"name" text NOT NULL,
	"image" text NOT NULL,
	"summary" jsonb NOT NULL,
	"specs" jsonb NOT NULL,
	"price_usdt" numeric(78, 0) NOT NULL,
	"stock" integer NOT NULL,
	"sold" integer DEFAULT 0 NOT NULL,
	"per_order_max" integer NOT NULL,
	"is_on_sale" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_products_numbers" CHECK ("store_products"."price_usdt" > 0 and "store_products"."stock" >= 0 and "store_products"."sold" >= 0 and "store_products"."per_order_max" > 0)
);
--> statement-breakpoint
CREATE TABLE "user_performance" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"me_performance" numeric(78, 0) DEFAULT 0 NOT NULL,
	"team_performance" numeric(78, 0) DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_performance_not_negative" CHECK ("user_performance"."me_performance" >= 0 and "user_performance"."team_performance" >= 0)
);
--> statement-breakpoint
ALTER TABLE "addresses" ADD CONSTRAINT "addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performance_events" ADD CONSTRAINT "performance_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_order_devices" ADD CONSTRAINT "store_order_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_order_devices" ADD CONSTRAINT "store_order_devices_order_id_store_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."store_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_order_items" ADD CONSTRAINT "store_order_items_order_id_store_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."store_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_order_items" ADD CONSTRAINT "store_order_items_product_id_store_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."store_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_orders" ADD CONSTRAINT "store_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_orders" ADD CONSTRAINT "store_orders_payment_order_id_payment_orders_id_fk" FOREIGN KEY ("payment_order_id") REFERENCES "public"."payment_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_products" ADD CONSTRAINT "store_products_model_id_device_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."device_models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_performance" ADD CONSTRAINT "user_performance_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "addresses_user_idx" ON "addresses" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "addresses_one_default" ON "addresses" USING btree ("user_id") WHERE "addresses"."is_default";--> statement-breakpoint
CREATE UNIQUE INDEX "performance_events_ref_key" ON "performance_events" USING btree ("ref");--> statement-breakpoint
CREATE INDEX "performance_events_time_idx" ON "performance_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "store_order_devices_order_idx" ON "store_order_devices" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "store_orders_order_no_key" ON "store_orders" USING btree ("order_no");--> statement-breakpoint
CREATE UNIQUE INDEX "store_orders_request_key" ON "store_orders" USING btree ("request_key");--> statement-breakpoint
CREATE UNIQUE INDEX "store_orders_payment_order_key" ON "store_orders" USING btree ("payment_order_id");--> statement-breakpoint
CREATE INDEX "store_orders_user_idx" ON "store_orders" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "store_orders_status_idx" ON "store_orders" USING btree ("status","id");