DROP INDEX "notices_published_idx";--> statement-breakpoint
ALTER TABLE "notices" ALTER COLUMN "published_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "notices" ALTER COLUMN "published_at" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "pushed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "withdrawn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "withdraw_reason" text;--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Notices from before the console were pushed when published; unpublished ones count as withdrawn.
UPDATE "notices" SET "pushed_at" = "published_at", "updated_at" = "created_at";--> statement-breakpoint
UPDATE "notices" SET "withdrawn_at" = "published_at", "withdraw_reason" = 'unpublished before the console' WHERE NOT "is_published";--> statement-breakpoint
CREATE INDEX "notices_published_idx" ON "notices" USING btree ("published_at");--> statement-breakpoint
ALTER TABLE "notices" DROP COLUMN "is_published";--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_withdraw_reason" CHECK (("notices"."withdrawn_at" is null) = ("notices"."withdraw_reason" is null));