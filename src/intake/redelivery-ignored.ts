import type { IntakeDeps } from "./intake-deps.js";

/** A delivery whose id is already recorded (GitHub sent it again): nothing is applied; said and counted. */
export function redeliveryIgnored(
  deps: IntakeDeps,
  deliveryId: string,
  event: "pull_request" | "check_run" | "issue_comment" | "pull_request_review_comment",
  fields: Record<string, unknown> = {},
): void {
  deps.metrics?.webhookDeliveries.inc({ event, outcome: "duplicate" });
  deps.log.info({ deliveryId, ...fields }, "redelivery ignored");
}
