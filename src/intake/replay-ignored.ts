import type { IntakeDeps } from "./intake-deps.js";

/**
 * A delivery whose body was applied under another delivery id within the window: a replay of a captured
 * body (GitHub sends a changed body for anything that happened again). Recorded (its row names the first),
 * not applied; said at warn and counted.
 */
export function replayIgnored(
  deps: IntakeDeps,
  deliveryId: string,
  event: "pull_request" | "check_run" | "issue_comment" | "pull_request_review_comment",
  replayOf: string,
  fields: Record<string, unknown> = {},
): void {
  deps.metrics?.webhookDeliveries.inc({ event, outcome: "replay" });
  deps.log.warn({ deliveryId, replayOf, ...fields }, "replayed delivery ignored: its body was applied before");
}
