ALTER TABLE "webhook_deliveries" ADD COLUMN "body_digest" text;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "replay_of" text;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_body_digest_idx" ON "webhook_deliveries" USING btree ("body_digest") WHERE body_digest IS NOT NULL;