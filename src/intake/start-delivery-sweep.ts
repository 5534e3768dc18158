import type { Logger } from "pino";
import type { Probot } from "probot";
import type { DatabaseHandle } from "../db/database.js";
import { withTryAdvisoryLock } from "../db/with-advisory-lock.js";
import { knownDeliveryIds } from "../db/webhook-deliveries.js";
import { appHookDeliveries } from "../github/app-hook-deliveries.js";
import { GitHubError } from "../github/github-error.js";
import { redeliverFailedDeliveries, type SweepCounts } from "./redeliver-failed-deliveries.js";

/** Arbitrary constant (the migration lock is 7_246_001): one replica sweeps at a time. */
export const SWEEP_LOCK_KEY = 7_246_002;

const HOUR = 3_600_000;
/** A clean sweep's successor looks back to its start less this: GitHub's clock, and attempts still in flight then. */
const OVERLAP_MS = 10 * 60_000;

export interface DeliverySweepOptions {
  /** Probot: `auth()` without an installation id is an Octokit authenticated as the App (a JWT). */
  app: Pick<Probot, "auth">;
  database: DatabaseHandle;
  /** Between sweeps (REDELIVER_INTERVAL). */
  intervalMs: number;
  log: Logger;
  /** The first sweep, after start. Default 10 s. */
  firstDelayMs?: number;
  /** How far back a sweep looks at most. Default 24 h. */
  lookbackMs?: number;
  maxPages?: number;
  maxRedeliveries?: number;
  /** Attempts of one delivery before it is given up on (REDELIVER_MAX_ATTEMPTS). Default 5. */
  maxAttempts?: number;
  /** After GitHub refused the App (401/403/404): the next look, at least `intervalMs`. Default 1 h. */
  refusedRetryMs?: number;
  now?: () => number;
}

export type SweepOutcome =
  | { kind: "swept"; counts: SweepCounts }
  | { kind: "locked" }
  | { kind: "failed"; error: unknown }
  | { kind: "stopped" };

export interface DeliverySweep {
  /** Sweeps now (or joins the sweep under way); the timer goes on from there. */
  sweepNow(): Promise<SweepOutcome>;
  /** No more sweeps; waits for the one under way. */
  stop(): Promise<void>;
}

/**
 * The deliveries GitHub could not make while the app was down or answered 5xx are never retried by
 * GitHub itself: this looks through the App's delivery log shortly after start and then every
 * `intervalMs`, and redelivers each failed one at every sweep until an attempt succeeds, `maxAttempts`
 * attempts at most (see redeliverFailedDeliveries). A sweep looks back
 * to the start of the last one that left nothing behind (less a margin), 24 h at most.
 */
export function startDeliverySweep(options: DeliverySweepOptions): DeliverySweep {
  return new DeliverySweeper(options);
}

/** The sweep's timer and what it remembers between sweeps, as startDeliverySweep says. */
class DeliverySweeper implements DeliverySweep {
  private readonly log: Logger;
  private readonly intervalMs: number;
  private readonly now: () => number;
  private readonly lookbackMs: number;
  private readonly asked = new Map<string, number>();
  private readonly settled = new Set<string>();
  private windowStart: number | undefined;
  private lastSweepAt: number | undefined;
  /** GitHub refused the App: said once at error, quiet until it works again. */
  private refused = false;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<SweepOutcome> | undefined;
  private stopped = false;

  constructor(private readonly options: DeliverySweepOptions) {
    this.log = options.log;
    this.intervalMs = options.intervalMs;
    this.now = options.now ?? Date.now;
    this.lookbackMs = options.lookbackMs ?? 24 * HOUR;
    this.schedule(options.firstDelayMs ?? 10_000);
  }

  sweepNow(): Promise<SweepOutcome> {
    if (this.stopped) return Promise.resolve({ kind: "stopped" });
    this.running ??= this.sweep().then((outcome) => {
      this.running = undefined;
      this.schedule(this.nextDelay(outcome));
      return outcome;
    });
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.sweepNow(), delayMs);
    this.timer.unref();
  }

  private async sweep(): Promise<SweepOutcome> {
    const started = this.now();
    for (const [guid, at] of this.asked) if (at < started - 2 * this.lookbackMs) this.asked.delete(guid);
    // Settled ids are kept while they can still be in the window; the log's attempt count holds past that.
    if (this.settled.size > 100_000) this.settled.clear();
    const since = new Date(Math.max(started - this.lookbackMs, this.windowStart ?? -Infinity));
    const redeliveredAfter = new Date(this.lastSweepAt ?? started - this.intervalMs);
    try {
      const { app, database } = this.options;
      const result = await withTryAdvisoryLock(database, SWEEP_LOCK_KEY, async () =>
        redeliverFailedDeliveries(
          {
            deliveries: appHookDeliveries(await app.auth()),
            isKnown: (guids) => knownDeliveryIds(database.db, guids),
            asked: this.asked,
            settled: this.settled,
            log: this.log,
            maxPages: this.options.maxPages,
            maxRedeliveries: this.options.maxRedeliveries,
            maxAttempts: this.options.maxAttempts,
            now: this.now,
          },
          { since, redeliveredAfter },
        ),
      );
      if (!result.locked) {
        this.log.debug("another replica is sweeping failed webhook deliveries");
        return { kind: "locked" };
      }
      this.swept(result.value, started, since);
      return { kind: "swept", counts: result.value };
    } catch (error) {
      this.reportFailure(error);
      return { kind: "failed", error };
    }
  }

  /** After a sweep: where the next one looks back to, and what this one did. */
  private swept(counts: SweepCounts, started: number, since: Date): void {
    this.lastSweepAt = started;
    // The deliveries behind the page limit, over the cap or after an error are looked at again next time.
    if (counts.reachedWindowStart && counts.deferred === 0 && counts.errors === 0)
      this.windowStart = started - OVERLAP_MS;
    if (this.refused)
      this.log.info("GitHub's webhook delivery log is readable again; failed deliveries are redelivered");
    this.refused = false;
    const skipped = counts.skipped.applied + counts.skipped.asked + counts.skipped.redeliveredRecently;
    this.log.info(
      { since: since.toISOString(), ...counts, skipped, skippedBecause: counts.skipped },
      "failed webhook deliveries swept",
    );
    if (!counts.reachedWindowStart)
      this.log.warn(
        { pages: counts.pages, since: since.toISOString() },
        "delivery log longer than the pages a sweep reads; older failed deliveries were not looked at",
      );
  }

  private reportFailure(error: unknown): void {
    const failure = error instanceof GitHubError ? error : undefined;
    if (failure && refusesTheApp(failure)) {
      if (!this.refused) {
        this.log.error(
          {
            err: failure,
            status: failure.status,
            failure: failure.kind,
            authProblem: failure.authProblem,
            retryInMs: this.refusedDelay(),
          },
          failure.status === 401
            ? "GitHub refused the App's JWT when reading its webhook delivery log: check that APP_ID and PRIVATE_KEY belong to the same App and that this machine's clock is right (or set REDELIVER_INTERVAL=off); failed deliveries are not redelivered until then"
            : "GitHub refused the App its webhook delivery log: check that the App's webhook is active in its settings and that APP_ID is this App's (or set REDELIVER_INTERVAL=off); failed deliveries are not redelivered until then",
        );
      } else {
        this.log.debug({ err: failure, status: failure.status }, "webhook delivery log still refused");
      }
      this.refused = true;
      return;
    }
    this.log.warn(
      { err: error, failure: failure?.kind },
      "failed webhook deliveries not swept; trying again at the next sweep",
    );
  }

  private refusedDelay(): number {
    return Math.max(this.intervalMs, this.options.refusedRetryMs ?? HOUR);
  }

  private nextDelay(outcome: SweepOutcome): number {
    if (outcome.kind !== "failed" || !(outcome.error instanceof GitHubError)) return this.intervalMs;
    if (refusesTheApp(outcome.error)) return this.refusedDelay();
    return Math.max(this.intervalMs, outcome.error.retryAfterMs ?? 0);
  }
}

/** 401/403 (not a rate limit) or 404 on the App's own log: asking again will not help, an operator must act. */
function refusesTheApp(failure: GitHubError): boolean {
  return failure.kind === "auth" || failure.kind === "not-found";
}
