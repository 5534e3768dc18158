ALTER TABLE "runs" ADD COLUMN "merged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "merged_by" text;