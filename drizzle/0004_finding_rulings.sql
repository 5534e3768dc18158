ALTER TABLE "findings" ADD COLUMN "ruling" text;--> statement-breakpoint
ALTER TABLE "findings" ADD COLUMN "ruling_reason" text;--> statement-breakpoint
ALTER TABLE "findings" ADD COLUMN "ruling_by" text;--> statement-breakpoint
ALTER TABLE "findings" ADD COLUMN "ruling_confirmation" text;--> statement-breakpoint
ALTER TABLE "findings" ADD COLUMN "ruling_confirmed_by" text;--> statement-breakpoint
ALTER TABLE "findings" ADD COLUMN "ruling_reply_id" bigint;--> statement-breakpoint
ALTER TABLE "run_commands" ADD COLUMN "answer" jsonb;