ALTER TABLE "proof_snapshots" ADD COLUMN "pub_chain_id" integer;--> statement-breakpoint
ALTER TABLE "proof_snapshots" ADD COLUMN "pub_from_address" text;--> statement-breakpoint
ALTER TABLE "proof_snapshots" ADD COLUMN "pub_nonce" integer;--> statement-breakpoint
ALTER TABLE "proof_snapshots" ADD COLUMN "pub_signed_tx" text;--> statement-breakpoint
CREATE UNIQUE INDEX "proof_snapshots_pub_nonce_idx" ON "proof_snapshots" USING btree ("pub_chain_id","pub_from_address","pub_nonce");