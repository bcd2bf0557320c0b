CREATE TABLE "destroy_orders" (
	"order_id" bigint PRIMARY KEY NOT NULL,
	"price" numeric(78, 0) NOT NULL,
	"value_usdt" numeric(78, 0) NOT NULL,
	CONSTRAINT "destroy_orders_positive" CHECK ("destroy_orders"."price" > 0 and "destroy_orders"."value_usdt" > 0)
);
--> statement-breakpoint
ALTER TABLE "destroy_orders" ADD CONSTRAINT "destroy_orders_order_id_payment_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."payment_orders"("id") ON DELETE no action ON UPDATE no action;