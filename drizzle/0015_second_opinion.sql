ALTER TABLE "findings" ADD COLUMN "second_opinion" text;--> statement-breakpoint
ALTER TABLE "findings" ADD COLUMN "second_opinion_by" text;--> statement-breakpoint
ALTER TABLE "findings" ADD COLUMN "second_opinion_reason" text;