CREATE TABLE "finding_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"run_id" integer NOT NULL,
	"finding_number" integer NOT NULL,
	"kind" text NOT NULL,
	"actor" text,
	"turn_id" integer,
	"detail" text,
	"url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refusals" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"repository_full_name" text,
	"pr_number" integer,
	"actor" text,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "web_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"login" text NOT NULL,
	"token_ciphertext" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "finding_events" ADD CONSTRAINT "finding_events_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finding_events" ADD CONSTRAINT "finding_events_turn_id_turns_id_fk" FOREIGN KEY ("turn_id") REFERENCES "public"."turns"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "finding_events_run_idx" ON "finding_events" USING btree ("run_id","finding_number","id");--> statement-breakpoint
CREATE INDEX "refusals_created_idx" ON "refusals" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "web_sessions_expires_idx" ON "web_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "runs_repository_updated_idx" ON "runs" USING btree ("repository_id","updated_at");--> statement-breakpoint
CREATE INDEX "turns_started_idx" ON "turns" USING btree ("started_at");