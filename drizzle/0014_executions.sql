CREATE TABLE "executions" (
	"id" serial PRIMARY KEY NOT NULL,
	"run_id" integer NOT NULL,
	"turn_id" integer,
	"finding_id" integer,
	"head_sha" text NOT NULL,
	"kind" text NOT NULL,
	"phase" text NOT NULL,
	"name" text NOT NULL,
	"command" text NOT NULL,
	"outcome" text NOT NULL,
	"exit_code" integer,
	"duration_ms" integer DEFAULT 0 NOT NULL,
	"output_digest" text NOT NULL,
	"output_tail" text DEFAULT '' NOT NULL,
	"cached" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "findings" ADD COLUMN "reproducer" jsonb;--> statement-breakpoint
ALTER TABLE "findings" ADD COLUMN "reproduction" text;--> statement-breakpoint
ALTER TABLE "findings" ADD COLUMN "demoted_from" text;--> statement-breakpoint
ALTER TABLE "executions" ADD CONSTRAINT "executions_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "executions" ADD CONSTRAINT "executions_turn_id_turns_id_fk" FOREIGN KEY ("turn_id") REFERENCES "public"."turns"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "executions" ADD CONSTRAINT "executions_finding_id_findings_id_fk" FOREIGN KEY ("finding_id") REFERENCES "public"."findings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "executions_run_idx" ON "executions" USING btree ("run_id","id");--> statement-breakpoint
CREATE INDEX "executions_finding_idx" ON "executions" USING btree ("finding_id");--> statement-breakpoint
CREATE INDEX "executions_created_idx" ON "executions" USING btree ("created_at");