CREATE TABLE "proof_reserve_addresses" (
	"address" text PRIMARY KEY NOT NULL,
	"role" text NOT NULL,
	"label" text NOT NULL,
	"message" text NOT NULL,
	"signature" text NOT NULL,
	"signer" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "proof_reserve_addresses_role" CHECK ("proof_reserve_addresses"."role" in ('hot_wallet', 'payment_gateway', 'treasury', 'cold'))
);
--> statement-breakpoint
CREATE TABLE "proof_rewards" (
	"epoch" integer PRIMARY KEY NOT NULL,
	"paid" jsonb NOT NULL,
	"scheduled" numeric(78, 0) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "proof_salts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"salt" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "proof_snapshot_covers" (
	"snapshot_id" integer NOT NULL,
	"asset" text NOT NULL,
	"reserves" numeric(78, 0) NOT NULL,
	"liabilities" numeric(78, 0) NOT NULL,
	CONSTRAINT "proof_snapshot_covers_snapshot_id_asset_pk" PRIMARY KEY("snapshot_id","asset")
);
--> statement-breakpoint
CREATE TABLE "proof_snapshot_reserves" (
	"snapshot_id" integer NOT NULL,
	"address" text NOT NULL,
	"role" text NOT NULL,
	"label" text NOT NULL,
	"message" text NOT NULL,
	"signature" text NOT NULL,
	"signer" text NOT NULL,
	"nadi" numeric(78, 0) NOT NULL,
	"usdt" numeric(78, 0) NOT NULL,
	CONSTRAINT "proof_snapshot_reserves_snapshot_id_address_pk" PRIMARY KEY("snapshot_id","address")
);
--> statement-breakpoint
CREATE TABLE "proof_snapshots" (
	"id" serial PRIMARY KEY NOT NULL,
	"epoch" integer,
	"trigger" text NOT NULL,
	"taken_at" timestamp with time zone NOT NULL,
	"ledger_transfer_id" bigint NOT NULL,
	"block_number" bigint NOT NULL,
	"rewards_epoch" integer,
	"pub_state" text DEFAULT 'unpublished' NOT NULL,
	"pub_tx_hash" text,
	"pub_block_number" bigint,
	"published_at" timestamp with time zone,
	"pub_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "proof_snapshots_trigger" CHECK ("proof_snapshots"."trigger" in ('epoch', 'operator')),
	CONSTRAINT "proof_snapshots_pub_state" CHECK ("proof_snapshots"."pub_state" in ('unpublished', 'pending', 'published', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "proof_tree_chunks" (
	"scope" text NOT NULL,
	"chunk" integer NOT NULL,
	"first_leaf" integer NOT NULL,
	"leaves" "bytea" NOT NULL,
	"owners" "bytea" NOT NULL,
	CONSTRAINT "proof_tree_chunks_scope_chunk_pk" PRIMARY KEY("scope","chunk")
);
--> statement-breakpoint
CREATE TABLE "proof_trees" (
	"scope" text PRIMARY KEY NOT NULL,
	"dims" text[] NOT NULL,
	"leaf_count" integer NOT NULL,
	"users" integer NOT NULL,
	"root_hash" text NOT NULL,
	"root_sums" numeric(78, 0)[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "proof_salts" ADD CONSTRAINT "proof_salts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proof_snapshot_covers" ADD CONSTRAINT "proof_snapshot_covers_snapshot_id_proof_snapshots_id_fk" FOREIGN KEY ("snapshot_id") REFERENCES "public"."proof_snapshots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proof_snapshot_reserves" ADD CONSTRAINT "proof_snapshot_reserves_snapshot_id_proof_snapshots_id_fk" FOREIGN KEY ("snapshot_id") REFERENCES "public"."proof_snapshots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proof_tree_chunks" ADD CONSTRAINT "proof_tree_chunks_scope_proof_trees_scope_fk" FOREIGN KEY ("scope") REFERENCES "public"."proof_trees"("scope") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "proof_snapshots_epoch_idx" ON "proof_snapshots" USING btree ("epoch");