CREATE TABLE "sign_ins" (
	"user_id" integer NOT NULL,
	"day" integer NOT NULL,
	"cycle_day" smallint NOT NULL,
	"award" numeric(78, 0) NOT NULL,
	"flow_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sign_ins_user_id_day_pk" PRIMARY KEY("user_id","day"),
	CONSTRAINT "sign_ins_cycle_day" CHECK ("sign_ins"."cycle_day" between 1 and 7)
);
--> statement-breakpoint
CREATE TABLE "team_epochs" (
	"epoch" integer PRIMARY KEY NOT NULL,
	"wanted" numeric(78, 0) NOT NULL,
	"payable" numeric(78, 0) NOT NULL,
	"paid" numeric(78, 0) NOT NULL,
	"lines" integer NOT NULL,
	"flow_id" bigint,
	"settled_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "team_reward_totals" (
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"total" numeric(78, 0) NOT NULL,
	"last_epoch" integer NOT NULL,
	"last_epoch_amount" numeric(78, 0) NOT NULL,
	CONSTRAINT "team_reward_totals_user_id_kind_pk" PRIMARY KEY("user_id","kind")
);
--> statement-breakpoint
CREATE TABLE "team_rewards" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"epoch" integer NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"source_user_id" integer NOT NULL,
	"source_depth" integer NOT NULL,
	"source_amount" numeric(78, 0) NOT NULL,
	"rate_bps" integer NOT NULL,
	"lower_numerator" numeric(78, 0) DEFAULT 0 NOT NULL,
	"wanted" numeric(78, 0) NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"ref" text,
	"flow_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_rewards_kind" CHECK ("team_rewards"."kind" in ('device_direct_reward', 'share_income', 'community_power_income', 'power_level_income'))
);
--> statement-breakpoint
CREATE TABLE "team_week_performance" (
	"week" integer NOT NULL,
	"user_id" integer NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "team_week_performance_week_user_id_pk" PRIMARY KEY("week","user_id")
);
--> statement-breakpoint
ALTER TABLE "user_performance" ADD COLUMN "direct_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "user_performance" ADD COLUMN "active_directs" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "user_performance" ADD COLUMN "team_size" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sign_ins" ADD CONSTRAINT "sign_ins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "team_rewards_user_idx" ON "team_rewards" USING btree ("user_id","epoch","id");--> statement-breakpoint
CREATE UNIQUE INDEX "team_rewards_epoch_key" ON "team_rewards" USING btree ("epoch","user_id","kind","source_user_id") WHERE "team_rewards"."ref" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "team_rewards_ref_key" ON "team_rewards" USING btree ("ref") WHERE "team_rewards"."ref" is not null;--> statement-breakpoint
CREATE INDEX "team_week_performance_rank_idx" ON "team_week_performance" USING btree ("week","amount" DESC NULLS LAST,"user_id");--> statement-breakpoint
ALTER TABLE "user_performance" ADD CONSTRAINT "user_performance_counts_not_negative" CHECK ("user_performance"."direct_count" >= 0 and "user_performance"."active_directs" >= 0 and "user_performance"."team_size" >= 0);--> statement-breakpoint
-- The team's counts for the users already registered, from the closure table (from now on they are
-- kept as users register and buy: docs/team.md "Aggregates").
INSERT INTO "user_performance" ("user_id", "updated_at")
SELECT DISTINCT "ancestor_id", now() FROM "user_ancestors"
ON CONFLICT ("user_id") DO NOTHING;
--> statement-breakpoint
UPDATE "user_performance" p
   SET "direct_count" = c."direct", "active_directs" = c."active", "team_size" = c."team"
  FROM (
    SELECT a."ancestor_id" AS "user_id",
           count(*) FILTER (WHERE a."depth" = 1)::int AS "direct",
           count(*) FILTER (WHERE a."depth" = 1 AND coalesce(m."me_performance", 0) > 0)::int AS "active",
           count(*)::int AS "team"
      FROM "user_ancestors" a
      LEFT JOIN "user_performance" m ON m."user_id" = a."user_id"
     GROUP BY a."ancestor_id"
  ) c
 WHERE p."user_id" = c."user_id";
