import { inArray, sql } from "drizzle-orm";
import type { Database } from "./database.js";
import { webhookDeliveries } from "./schema.js";

/**
 * How long a body applied once is a replay when it comes again under another delivery id. GitHub's bodies
 * carry what changed (ids, shas, second-precise timestamps), so two real events share a body only when
 * nothing changed between them: a check run re-requested again before its first job touched it (that job
 * answers both), or the same label or close flipped back and forth within one second. A week: a captured
 * body is refused that long, and the lookup is one index probe whatever the window.
 */
export const REPLAY_WINDOW_SECONDS = 7 * 24 * 3600;

/** Of the deliveries with one body digest, those applied (not replays) within the window. */
const APPLIED_WITHIN_WINDOW = `replay_of IS NULL AND received_at > now() - interval '${REPLAY_WINDOW_SECONDS} seconds'`;

/**
 * SQL for the delivery id a body was first applied under within the window, `digest` being the SQL
 * expression of its digest; NULL when there is none (or no digest).
 */
export function firstDeliveryOfBodySql(digest: string): string {
  return `(SELECT delivery_id FROM webhook_deliveries WHERE body_digest = ${digest} AND ${APPLIED_WITHIN_WINDOW}
    ORDER BY received_at LIMIT 1)`;
}

/** A delivery as the intake records it: its id, its event, the digest of its body when known. */
export interface DeliveryToRecord {
  deliveryId: string;
  event: string;
  bodyDigest?: string;
}

/**
 * What recording a delivery found: `new` (apply it), `redelivery` (this id was recorded before: GitHub sent
 * it again), or a replay (its body was applied under another id within the window: recorded, not applied).
 */
export type DeliveryOutcome = "new" | "redelivery" | { replayOf: string };

/** Records a delivery and says whether to apply it (see DeliveryOutcome). */
export async function recordDelivery(db: Database, delivery: DeliveryToRecord): Promise<DeliveryOutcome> {
  const { deliveryId, event, bodyDigest = null } = delivery;
  const inserted = await db
    .insert(webhookDeliveries)
    .values({
      deliveryId,
      event,
      bodyDigest,
      replayOf: sql`(SELECT delivery_id FROM webhook_deliveries WHERE body_digest = ${bodyDigest}
        AND ${sql.raw(APPLIED_WITHIN_WINDOW)} ORDER BY received_at LIMIT 1)`,
    })
    .onConflictDoNothing()
    .returning({ replayOf: webhookDeliveries.replayOf });
  if (inserted.length === 0) return "redelivery";
  return inserted[0]!.replayOf === null ? "new" : { replayOf: inserted[0]!.replayOf };
}

/** Which of these delivery ids were already recorded (applied, or refused as replays). */
export async function knownDeliveryIds(db: Database, deliveryIds: string[]): Promise<Set<string>> {
  if (deliveryIds.length === 0) return new Set();
  const rows = await db
    .select({ id: webhookDeliveries.deliveryId })
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.deliveryId, deliveryIds));
  return new Set(rows.map((r) => r.id));
}
