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
