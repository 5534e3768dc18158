ALTER TABLE "findings" ADD COLUMN "evidence_from_sha" text;--> statement-breakpoint
ALTER TABLE "findings" ADD COLUMN "verification" text;