CREATE TABLE "team_rank_marks" (
	"week" integer NOT NULL,
	"mark" integer NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"user_id" integer NOT NULL,
	"rank" integer NOT NULL,
	CONSTRAINT "team_rank_marks_week_mark_pk" PRIMARY KEY("week","mark")
);
--> statement-breakpoint
CREATE TABLE "team_rank_moves" (
	"week" integer NOT NULL,
	"user_id" integer NOT NULL,
	"old_amount" numeric(78, 0),
	"new_amount" numeric(78, 0)
);
--> statement-breakpoint
CREATE TABLE "team_rank_weeks" (
	"week" integer PRIMARY KEY NOT NULL,
	"ranked" integer NOT NULL,
	"built_at" timestamp with time zone NOT NULL,
	"folded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "team_rank_marks_key_idx" ON "team_rank_marks" USING btree ("week","amount" DESC NULLS LAST,"user_id");