ALTER TABLE "run_agent_sessions" ADD COLUMN "context_tokens" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "run_agent_sessions" ADD COLUMN "overhead_tokens" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "run_agent_sessions" ADD COLUMN "memory" jsonb;--> statement-breakpoint
ALTER TABLE "turns" ADD COLUMN "cache_read_tokens" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "turns" ADD COLUMN "cache_write_tokens" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "turns" ADD COLUMN "context_tokens" integer DEFAULT 0 NOT NULL;