import { readFileSync } from "node:fs";
import type { ExecuteSql } from "../../src/db/database.js";

export interface SentDeliveries {
  /** Every delivery the app answered 2xx, in order. */
  ids: string[];
  /** Deliveries whose request failed (no answer): the app may or may not have recorded them. */
  failed: Set<string>;
  /** The head the last delivery of each PR named. */
  lastHead: Map<number, string>;
  /** When each delivery was answered (ms since the epoch). */
  answeredAt: Map<string, number>;
}

export interface DeliveryChecks {
  deliveriesSent: number;
  deliveriesRecorded: number;
  missingDeliveries: number;
  extraDeliveries: number;
  runs: number;
  staleHeads: number;
  jobs: number;
  duplicateJobDeliveries: number;
  strayJobDeliveries: number;
  runsWithMoreThanOneWaitingOrActive: number;
  runsWhoseNewestHeadIsNotCovered: number;
  /** Jobs not said "review queued" exactly once in the app's log, and such lines without their job. */
  queuedNotLoggedOnce: number;
  /** Deliveries the app applied a second time ("redelivery ignored"): the bench sends every id once. */
  appliedTwice: number;
  /** Turns by status (reviewer turns; `failed` ones are reported, a failed review is not silent). */
  turns: Record<string, number>;
  /** From GitHub's answer to the committed row: how long an acknowledged delivery lived only in the journal. */
  applyLagMs: number[];
}

/** Sum of the figures that must be 0 for "every delivery enqueued exactly once". */
export function deliveryProblems(d: DeliveryChecks): number {
  return (
    d.missingDeliveries +
    d.extraDeliveries +
    d.staleHeads +
    d.duplicateJobDeliveries +
    d.strayJobDeliveries +
    d.runsWithMoreThanOneWaitingOrActive +
    d.runsWhoseNewestHeadIsNotCovered +
    d.queuedNotLoggedOnce +
    d.appliedTwice
  );
}

/**
 * The database (read after the app stopped) and the app's log against what was sent: every delivery
 * recorded once; at most one waiting and one active job per run; every run at the newest head it was
 * told about, and that head either reviewed or still covered by a waiting job; every delivery queued
 * at most one job, each job said once in the app's log ("review queued"; a push folded into a waiting
 * job is said at debug, which the bench does not log), and none applied twice ("redelivery ignored").
 */
export async function checkDeliveries(
  sql: ExecuteSql,
  sent: SentDeliveries,
  appLogPath: string,
): Promise<DeliveryChecks> {
  const rows = async <T>(text: string) => (await sql(text)).rows as T[];
  const recorded = await rows<{ delivery_id: string; received_at: string | Date }>(
    "select delivery_id, received_at from webhook_deliveries",
  );
  const applyLagMs = recorded
    .map((r) => new Date(r.received_at).getTime() - (sent.answeredAt.get(r.delivery_id) ?? NaN))
    .filter((ms) => Number.isFinite(ms))
    .sort((a, b) => a - b);
  const recordedSet = new Set(recorded.map((r) => r.delivery_id));
  const sentSet = new Set(sent.ids);
  const runs = await rows<{ id: number; pr_number: number; head_sha: string; last_reviewed_sha: string | null }>(
    "select id, pr_number, head_sha, last_reviewed_sha from runs",
  );
  const jobs = await rows<{ state: string; singleton_key: string; delivery: string }>(
    "select state, singleton_key, data->>'deliveryId' as delivery from pgboss.job where name = 'no-mistakes-run'",
  );
  const jobDeliveries = jobs.map((j) => j.delivery);
  let uncovered = 0;
  let overWaiting = 0;
  for (const run of runs) {
    const mine = jobs.filter((j) => j.singleton_key === String(run.id));
    const waiting = mine.filter((j) => j.state === "created" || j.state === "retry");
    const active = mine.filter((j) => j.state === "active");
    if (waiting.length > 1 || active.length > 1) overWaiting++;
    // The app has stopped: its running turns finished or were handed back as waiting jobs.
    if (run.last_reviewed_sha !== run.head_sha && waiting.length === 0) uncovered++;
  }
  const turns: Record<string, number> = {};
  for (const t of await rows<{ status: string; n: number }>(
    "select status, count(*)::int as n from turns group by status",
  ))
    turns[t.status] = Number(t.n);

  const queuedLines = new Map<string, number>();
  let appliedTwice = 0;
  for (const line of readFileSync(appLogPath, "utf8").split("\n")) {
    const queued = line.includes("review queued");
    if (!queued && !line.includes("redelivery ignored")) continue;
    try {
      const entry = JSON.parse(line) as { deliveryId?: string };
      if (!entry.deliveryId) continue;
      if (queued) queuedLines.set(entry.deliveryId, (queuedLines.get(entry.deliveryId) ?? 0) + 1);
      else if (sentSet.has(entry.deliveryId)) appliedTwice++;
    } catch {
      // a line that is not JSON cannot be one of these
    }
  }
  const jobSet = new Set(jobDeliveries);
  const queuedNotLoggedOnce =
    jobDeliveries.filter((d) => sentSet.has(d) && queuedLines.get(d) !== 1).length +
    [...queuedLines.keys()].filter((d) => !jobSet.has(d)).length;
  return {
    deliveriesSent: sent.ids.length,
    deliveriesRecorded: recorded.length,
    missingDeliveries: sent.ids.filter((d) => !recordedSet.has(d)).length,
    extraDeliveries: recorded.filter((r) => !sentSet.has(r.delivery_id) && !sent.failed.has(r.delivery_id)).length,
    runs: runs.length,
    staleHeads: runs.filter((r) => sent.lastHead.get(r.pr_number) !== r.head_sha).length,
    jobs: jobs.length,
    duplicateJobDeliveries: jobDeliveries.length - new Set(jobDeliveries).size,
    strayJobDeliveries: jobDeliveries.filter((d) => !sentSet.has(d) && !sent.failed.has(d)).length,
    runsWithMoreThanOneWaitingOrActive: overWaiting,
    runsWhoseNewestHeadIsNotCovered: uncovered,
    queuedNotLoggedOnce,
    appliedTwice,
    turns,
    applyLagMs,
  };
}
