import type { Logger } from "pino";
import type { AppHookDeliveries, HookDelivery } from "../github/app-hook-deliveries.js";
import { toGitHubError } from "../github/github-error.js";

export interface RedeliverDeps {
  deliveries: AppHookDeliveries;
  /** Which of these delivery ids the app already applied (the webhook_deliveries table). */
  isKnown(guids: string[]): Promise<Set<string>>;
  /**
   * Delivery id → when this process last asked GitHub to redeliver it (so a recent redelivery in the
   * log is told apart from another replica's). Added to here.
   */
  asked: Map<string, number>;
  /** Delivery ids not asked for again in this process: given up on (logged once), or refused by GitHub. Added to here. */
  settled: Set<string>;
  log: Logger;
  /** Pages of 100 attempts read at most. Default 10. */
  maxPages?: number;
  /** Redeliveries asked for at most; the rest wait for the next sweep. Default 50. */
  maxRedeliveries?: number;
  /**
   * Attempts of one delivery (the original and its redeliveries, as GitHub's log lists them) after
   * which it is given up on: it holds across restarts. Default 5.
   */
  maxAttempts?: number;
  now?: () => number;
}

export interface SweepWindow {
  /** Deliveries whose latest attempt is older than this were settled by an earlier sweep. */
  since: Date;
  /** A redelivery attempt after this was asked for by someone else (another replica): not asked again now. */
  redeliveredAfter: Date;
}

export interface SweepCounts {
  pages: number;
  /** Deliveries in the window no attempt of which succeeded. */
  failed: number;
  redelivered: number;
  skipped: { applied: number; asked: number; redeliveredRecently: number };
  /** Deliveries with maxAttempts failed attempts: not asked for again (a warn line each, once per process). */
  gaveUp: number;
  /** Over the cap, or after GitHub's rate limit: left for the next sweep. */
  deferred: number;
  /** Redeliveries GitHub did not accept (logged each). */
  errors: number;
  /** False when the page limit cut the log short of `since`. */
  reachedWindowStart: boolean;
}

/**
 * One pass over the App's webhook delivery log: every delivery in the window that GitHub could not make
 * (no attempt of its delivery id answered 2xx) is redelivered, at every sweep until one attempt
 * succeeds — unless the app already applied it, another replica redelivered it since `redeliveredAfter`,
 * or it already has `maxAttempts` attempts in the log (then it is given up on, with a warn line). Fewest
 * attempts first, then oldest, at most `maxRedeliveries`. GitHub refusing the App (`auth`) is thrown: an
 * operator must act, and the caller decides how to say so.
 */
export async function redeliverFailedDeliveries(deps: RedeliverDeps, window: SweepWindow): Promise<SweepCounts> {
  const { attempts, pages, reachedWindowStart } = await readLog(deps.deliveries, window.since, deps.maxPages ?? 10);
  const counts: SweepCounts = {
    pages,
    failed: 0,
    redelivered: 0,
    skipped: { applied: 0, asked: 0, redeliveredRecently: 0 },
    gaveUp: 0,
    deferred: 0,
    errors: 0,
    reachedWindowStart,
  };
  const candidates = failedCandidates(deps, window, attempts, counts);
  const known = await deps.isKnown(candidates.map((tries) => tries[0]!.guid));
  const due = candidates.filter((tries) => !known.has(tries[0]!.guid));
  counts.skipped.applied = candidates.length - due.length;
  // Fewest attempts first: a cap cannot keep the same deliveries ahead of the others sweep after sweep.
  due.sort((a, b) => a.length - b.length || a[0]!.deliveredAt.getTime() - b[0]!.deliveredAt.getTime());
  await redeliver(deps, due, counts);
  return counts;
}

/**
 * The failed deliveries in the window (their attempts, oldest first) that may be asked for again: not
 * settled, not at `maxAttempts` (given up on now, with a warn line) and not redelivered by another replica
 * since `redeliveredAfter`. Counted in `counts`.
 */
function failedCandidates(
  deps: RedeliverDeps,
  window: SweepWindow,
  attempts: HookDelivery[],
  counts: SweepCounts,
): HookDelivery[][] {
  const maxAttempts = deps.maxAttempts ?? 5;
  const candidates: HookDelivery[][] = [];
  for (const tries of groupByGuid(attempts).values()) {
    if (tries.at(-1)!.deliveredAt < window.since || tries.some(succeeded)) continue;
    counts.failed++;
    const first = tries[0]!;
    const askedAt = deps.asked.get(first.guid);
    const ourOwn = askedAt !== undefined && askedAt >= window.redeliveredAfter.getTime();
    if (deps.settled.has(first.guid)) counts.skipped.asked++;
    else if (tries.length >= maxAttempts) {
      counts.gaveUp++;
      deps.settled.add(first.guid);
      deps.log.warn(
        {
          deliveryId: first.guid,
          event: first.event,
          action: first.action,
          attempts: tries.length,
          lastStatus: tries.at(-1)!.statusCode,
        },
        "webhook delivery failed every attempt; not redelivered again",
      );
    } else if (!ourOwn && tries.some((t) => t.redelivery && t.deliveredAt > window.redeliveredAfter))
      counts.skipped.redeliveredRecently++;
    else candidates.push(tries);
  }
  return candidates;
}

/** Asks GitHub to redeliver the first `maxRedeliveries` of `due`; after a rate limit, the rest wait. */
async function redeliver(deps: RedeliverDeps, due: HookDelivery[][], counts: SweepCounts): Promise<void> {
  const now = deps.now ?? Date.now;
  const max = deps.maxRedeliveries ?? 50;
  counts.deferred = Math.max(0, due.length - max);
  for (const [i, tries] of due.slice(0, max).entries()) {
    const first = tries[0]!;
    try {
      await deps.deliveries.redeliver(first.id);
      deps.asked.set(first.guid, now());
      counts.redelivered++;
    } catch (error) {
      const failure = toGitHubError(error, "redeliver webhook delivery");
      if (failure.kind === "auth") throw failure;
      counts.errors++;
      deps.log.warn(
        { err: failure, deliveryId: first.guid, attemptId: first.id, event: first.event, failure: failure.kind },
        "redelivery not accepted by GitHub",
      );
      // GitHub will not redeliver what it cannot find or refuses: asking again cannot help.
      if (failure.kind === "not-found" || failure.kind === "unprocessable") deps.settled.add(first.guid);
      if (failure.kind === "rate-limited") {
        counts.deferred += Math.min(due.length, max) - i - 1;
        break;
      }
    }
  }
}

/** Newest first, page by page, until the page's oldest attempt is before `since`. */
async function readLog(
  log: AppHookDeliveries,
  since: Date,
  maxPages: number,
): Promise<{ attempts: HookDelivery[]; pages: number; reachedWindowStart: boolean }> {
  const attempts: HookDelivery[] = [];
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    const page = await log.listDeliveries(cursor);
    attempts.push(...page.deliveries);
    const oldest = page.deliveries.at(-1);
    if (!page.nextCursor || !oldest || oldest.deliveredAt < since) return { attempts, pages, reachedWindowStart: true };
    if (pages >= maxPages) return { attempts, pages, reachedWindowStart: false };
    cursor = page.nextCursor;
  }
}

/** Attempts per delivery id, oldest first (the original attempt, then its redeliveries). */
function groupByGuid(attempts: HookDelivery[]): Map<string, HookDelivery[]> {
  const byGuid = new Map<string, HookDelivery[]>();
  for (const attempt of attempts) {
    const tries = byGuid.get(attempt.guid) ?? [];
    tries.push(attempt);
    byGuid.set(attempt.guid, tries);
  }
  for (const tries of byGuid.values())
    tries.sort((a, b) => a.deliveredAt.getTime() - b.deliveredAt.getTime() || a.id - b.id);
  return byGuid;
}

function succeeded(attempt: HookDelivery): boolean {
  return attempt.statusCode >= 200 && attempt.statusCode < 300;
}
