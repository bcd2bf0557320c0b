-- Purchases not yet folded into the ancestors' aggregates (docs/team.md "Aggregates"): the queue of
-- foldPerformance (team/performance.ts). Empty at creation: every earlier event is in the aggregates already.
CREATE TABLE "performance_pending" (
	"event_id" bigint PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"referrer_id" integer,
	"usdt" numeric(78, 0) NOT NULL,
	"active_delta" integer NOT NULL,
	"week" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "performance_pending_active_delta" CHECK ("performance_pending"."active_delta" between -1 and 1)
);
--> statement-breakpoint
ALTER TABLE "performance_pending" ADD CONSTRAINT "performance_pending_event_id_performance_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."performance_events"("id") ON DELETE no action ON UPDATE no action;