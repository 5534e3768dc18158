ALTER TABLE "findings" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "findings" ADD COLUMN "outcome_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "turns" ADD COLUMN "model" text;--> statement-breakpoint
ALTER TABLE "turns" ADD COLUMN "pr_updated_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "findings_created_idx" ON "findings" USING btree ("created_at");--> statement-breakpoint
-- Back-fill: the outcome of every finding already in the ledger (src/db/finding-outcomes.ts, refreshOutcomesSql("TRUE")).
UPDATE findings AS t SET outcome = d.outcome, outcome_at = d.outcome_at
FROM (
  SELECT f.id, o.outcome, CASE WHEN o.outcome IS NULL THEN NULL ELSE CASE
    WHEN f.status IN ('fixed', 'dismissed', 'withdrawn') THEN COALESCE(
      (SELECT max(e.created_at) FROM finding_events e
        WHERE e.run_id = f.run_id AND e.finding_number = f.number AND e.kind IN (f.status, 'confirmed')),
      f.updated_at)
    WHEN r.merged_at IS NOT NULL THEN r.merged_at
    ELSE r.updated_at
  END END AS outcome_at
  FROM findings f JOIN runs r ON r.id = f.run_id
  CROSS JOIN LATERAL (SELECT CASE
    WHEN f.status = 'note' THEN NULL
    WHEN f.status IN ('fixed', 'dismissed', 'withdrawn') THEN f.status
    WHEN r.merged_at IS NOT NULL THEN 'open-at-merge'
    WHEN r.state = 'closed' THEN 'abandoned'
  END AS outcome) o
  WHERE TRUE
) d
WHERE t.id = d.id AND (t.outcome, t.outcome_at) IS DISTINCT FROM (d.outcome, d.outcome_at);
