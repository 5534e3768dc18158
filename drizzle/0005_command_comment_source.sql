DROP INDEX "run_commands_comment_unique";--> statement-breakpoint
ALTER TABLE "run_commands" ADD COLUMN "source" text DEFAULT 'issue_comment' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "run_commands_comment_unique" ON "run_commands" USING btree ("source","comment_id");