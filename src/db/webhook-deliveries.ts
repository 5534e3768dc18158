import { inArray } from "drizzle-orm";
import type { Database } from "./database.js";
import { webhookDeliveries } from "./schema.js";

/** Records a delivery; false when this delivery id was already accepted (a redelivery). */
export async function recordDelivery(db: Database, deliveryId: string, event: string): Promise<boolean> {
  const inserted = await db
    .insert(webhookDeliveries)
    .values({ deliveryId, event })
    .onConflictDoNothing()
    .returning({ id: webhookDeliveries.deliveryId });
  return inserted.length === 1;
}

/** Which of these delivery ids were already applied. */
export async function knownDeliveryIds(db: Database, deliveryIds: string[]): Promise<Set<string>> {
  if (deliveryIds.length === 0) return new Set();
  const rows = await db
    .select({ id: webhookDeliveries.deliveryId })
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.deliveryId, deliveryIds));
  return new Set(rows.map((r) => r.id));
}
