CREATE TABLE "findings" (
	"id" serial PRIMARY KEY NOT NULL,
	"run_id" integer NOT NULL,
	"number" integer NOT NULL,
	"fingerprint" text NOT NULL,
	"path" text,
	"line" integer,
	"end_line" integer,
	"severity" text NOT NULL,
	"action" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"suggestion" text,
	"status" text DEFAULT 'open' NOT NULL,
	"dismiss_reason" text,
	"review_id" bigint,
	"comment_id" bigint,
	"comment_node_id" text,
	"thread_id" text,
	"introduced_turn_id" integer,
	"resolved_turn_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "run_agent_sessions" (
	"run_id" integer NOT NULL,
	"role" text NOT NULL,
	"agent" text NOT NULL,
	"session_id" text NOT NULL,
	"state" "bytea",
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "run_agent_sessions_run_id_role_pk" PRIMARY KEY("run_id","role")
);
--> statement-breakpoint
CREATE TABLE "run_commands" (
	"id" serial PRIMARY KEY NOT NULL,
	"run_id" integer NOT NULL,
	"comment_id" bigint NOT NULL,
	"author" text NOT NULL,
	"command" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"installation_id" bigint NOT NULL,
	"repository_id" bigint NOT NULL,
	"repository_full_name" text NOT NULL,
	"clone_url" text NOT NULL,
	"pr_number" integer NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"author_login" text DEFAULT '' NOT NULL,
	"base_ref" text NOT NULL,
	"base_sha" text NOT NULL,
	"head_ref" text NOT NULL,
	"head_sha" text NOT NULL,
	"pr_updated_at" timestamp with time zone,
	"head_repo_full_name" text,
	"head_clone_url" text,
	"maintainer_can_modify" boolean DEFAULT false NOT NULL,
	"draft" boolean DEFAULT false NOT NULL,
	"last_reviewed_sha" text,
	"summary_comment_id" bigint,
	"state" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "turns" (
	"id" serial PRIMARY KEY NOT NULL,
	"run_id" integer NOT NULL,
	"role" text NOT NULL,
	"trigger" text NOT NULL,
	"head_sha" text NOT NULL,
	"agent" text NOT NULL,
	"session_mode" text,
	"session_id" text,
	"fallback_reason" text,
	"status" text DEFAULT 'running' NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"tokens_in" integer DEFAULT 0 NOT NULL,
	"tokens_out" integer DEFAULT 0 NOT NULL,
	"cost_usd" numeric(12, 6) DEFAULT 0 NOT NULL,
	"error" text,
	"raw_answer" text
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"delivery_id" text PRIMARY KEY NOT NULL,
	"event" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "findings" ADD CONSTRAINT "findings_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "findings" ADD CONSTRAINT "findings_introduced_turn_id_turns_id_fk" FOREIGN KEY ("introduced_turn_id") REFERENCES "public"."turns"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "findings" ADD CONSTRAINT "findings_resolved_turn_id_turns_id_fk" FOREIGN KEY ("resolved_turn_id") REFERENCES "public"."turns"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "run_agent_sessions" ADD CONSTRAINT "run_agent_sessions_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "run_commands" ADD CONSTRAINT "run_commands_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "turns" ADD CONSTRAINT "turns_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "findings_run_number_unique" ON "findings" USING btree ("run_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "findings_run_fingerprint_unique" ON "findings" USING btree ("run_id","fingerprint");--> statement-breakpoint
CREATE INDEX "run_commands_pending_idx" ON "run_commands" USING btree ("run_id","status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "run_commands_comment_unique" ON "run_commands" USING btree ("comment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "runs_repository_pr_unique" ON "runs" USING btree ("repository_id","pr_number");--> statement-breakpoint
CREATE INDEX "turns_run_idx" ON "turns" USING btree ("run_id","id");