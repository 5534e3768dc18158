import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "pino";
import type { Metrics } from "../metrics/metrics.js";
import type { Refusals } from "../refusals/refusals.js";
import { classifyApplyError } from "./classify-apply-error.js";
import { currentBodyDigest } from "./delivery-body-digest.js";
import { DeliveryJournal } from "./delivery-journal.js";
import type { IntakeRecord } from "./intake-record.js";
import { whereOf } from "./where-of.js";

/** The journal is emptied when everything in it is applied and it has grown past this. */
const JOURNAL_CLEAR_BYTES = 1 << 20;

/** Where webhook handlers hand over a validated delivery. */
export interface Intake {
  /** Journals the record and returns; throws when it cannot be kept (Probot then answers 500). */
  accept(record: IntakeRecord): void;
}

export interface WebhookIntakeOptions {
  /** DATA_DIR/intake: this process's journal, dead processes' journals, set-aside records. */
  dir: string;
  /** Writes a record's effects (delivery row, run, job) in one transaction; a redelivered id is a no-op. */
  apply: (record: IntakeRecord) => Promise<void>;
  log: Logger;
  /** Accepted but not yet applied; beyond this a delivery is refused with 503 so GitHub shows it failed. Default 10,000. */
  maxBacklog?: number;
  /** First retry delay, doubled up to `maxRetryDelayMs`. Defaults 100 ms and 30 s. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** Tries for a record whose failure is not the database's before it is set aside. Default 5. */
  recordAttempts?: number;
  /** Marks accepted deliveries for the webhook counter; absent = nothing recorded. */
  metrics?: Metrics;
  /** Where a delivery the intake refuses goes (counted, kept for the operator page); absent = nothing recorded. */
  refusals?: Refusals;
  /** Records applied together (absent: one at a time); see IntakeBatches. */
  batches?: IntakeBatches;
}

/**
 * Group apply: consecutive records that can be written by one statement go to the database together, one
 * round trip for the group instead of one each — what a delivery costs the process that answers webhooks.
 */
export interface IntakeBatches {
  /** How many of the oldest pending records (given oldest first) `apply` takes together: at least 1. */
  size: (pending: readonly IntakeRecord[]) => number;
  /** Applies the records together, all or nothing (like `apply` for one). */
  apply: (records: IntakeRecord[]) => Promise<void>;
  /**
   * While deliveries keep coming (the one before arrived less than this long ago), how long the loop
   * waits after one arrives before it applies, so that those arriving meanwhile go in the same group; a
   * delivery after a quiet spell is applied at once. The journal holds them all along: nothing waits
   * unkept. Default 0.
   */
  lingerMs?: number;
}

/** The delivery was not taken (shutting down, or too far behind): GitHub is answered 503 and shows it failed. */
export class IntakeRefusedError extends Error {
  override readonly name = "IntakeRefusedError";
  readonly status = 503;
}

/**
 * Accept now, apply right after. A handler's record is appended to the delivery journal (a synchronous
 * write, microseconds) and the webhook is answered; one loop then applies records in arrival order, each
 * in its own transaction. GitHub's ack never waits on the database, and nothing acknowledged is lost:
 * - the database down or busy: the record waits at the head and is retried (backoff) until it applies;
 * - the process killed: the journal holds what was not applied; the next start applies it;
 * - a record that keeps failing for its own sake: set aside in `failed.ndjson` after a few tries, logged.
 */
export class WebhookIntake implements Intake {
  private readonly pending: IntakeRecord[] = [];
  private pumping: Promise<void> | null = null;
  private stopped = false;
  /** Set when `stop` gave up waiting: the loop ends, the journal keeps the rest. */
  private abandoned = false;
  private readonly waiters: Array<() => void> = [];
  private readonly maxBacklog: number;
  /** When the last record was accepted (performance.now()); -Infinity before the first. */
  private lastAcceptedAt = -Infinity;
  /** The linger the latest accept asked the loop for. */
  private lastLingerMs = 0;

  private constructor(
    private readonly journal: DeliveryJournal,
    private readonly options: WebhookIntakeOptions,
  ) {
    this.maxBacklog = options.maxBacklog ?? 10_000;
  }

  /** Opens this process's journal and queues what stopped processes left unapplied. */
  static open(options: WebhookIntakeOptions): WebhookIntake {
    const journal = DeliveryJournal.open(options.dir);
    const intake = new WebhookIntake(journal, options);
    const adopted = journal.adoptOrphans(options.log);
    if (adopted.length > 0) {
      intake.pending.push(...adopted);
      intake.pump();
    }
    return intake;
  }

  accept(record: IntakeRecord): void {
    const { metrics, refusals } = this.options;
    if (this.stopped) {
      // Counted now; the row is written after the answer (Refusals: at most one per kind a minute).
      void refusals?.refuse({
        kind: "intake_stopping",
        ...whereOf(record),
        reason: `delivery ${record.deliveryId} (${record.kind}) answered 503: this process is stopping; GitHub shows it failed and the delivery sweep redelivers it`,
      });
      throw new IntakeRefusedError("shutting down; not accepting deliveries");
    }
    if (this.pending.length >= this.maxBacklog) {
      void refusals?.refuse({
        kind: "intake_full",
        ...whereOf(record),
        reason: `delivery ${record.deliveryId} (${record.kind}) answered 503: ${this.pending.length} deliveries wait for the database (the limit); is the database down or slow?`,
      });
      throw new IntakeRefusedError(
        `too many deliveries wait for the database (${this.pending.length}); refusing more until they are applied`,
      );
    }
    // The signed body's digest, known to the request these handlers run for: kept with the record.
    const bodyDigest = record.bodyDigest ?? currentBodyDigest();
    const kept = bodyDigest === undefined ? record : { ...record, bodyDigest };
    this.journal.append(kept);
    this.pending.push(kept);
    metrics?.deliveries.accepted(record.deliveryId);
    const now = performance.now();
    const lingerMs = this.options.batches?.lingerMs ?? 0;
    // While deliveries keep coming the loop lets them gather before it starts; after a quiet spell, at once.
    this.lastLingerMs = now - this.lastAcceptedAt < lingerMs ? lingerMs : 0;
    this.lastAcceptedAt = now;
    this.pump(this.lastLingerMs);
  }

  /** Accepted deliveries not yet applied. */
  backlog(): number {
    return this.pending.length;
  }

  /** Resolves once everything accepted so far has been applied (or set aside). */
  settled(): Promise<void> {
    if (this.pending.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /**
   * Stops accepting and applies what is pending for up to `timeoutMs`; what is left stays in the journal
   * for the next start.
   */
  async stop(timeoutMs = 10_000): Promise<void> {
    this.stopped = true;
    if (this.pending.length > 0) {
      const timedOut = sleep(timeoutMs, "timeout" as const, { ref: false }); // never what keeps a stopping process alive
      if ((await Promise.race([this.settled().then(() => "settled" as const), timedOut])) === "timeout") {
        this.abandoned = true;
        this.options.log.warn(
          { backlog: this.pending.length, journal: this.journal.path },
          "stopping with deliveries not yet applied; the next start applies them",
        );
      }
    }
    if (this.pending.length === 0) this.journal.clear();
    this.journal.close();
  }

  /** Starts the loop unless it runs; after `lingerMs` (deliveries keep coming: see IntakeBatches.lingerMs). */
  private pump(lingerMs = 0): void {
    // The loop starts on the next turn of the event loop, after the handler has returned and Probot has
    // written GitHub's answer: no database work sits between a delivery and its 2xx.
    this.pumping ??= new Promise<void>((resolve) =>
      lingerMs > 0 && !this.stopped ? setTimeout(resolve, lingerMs) : setImmediate(resolve),
    )
      .then(() => this.drain())
      .catch((error: unknown) =>
        this.options.log.error({ err: error, backlog: this.pending.length }, "intake loop failed; it restarts"),
      )
      .finally(() => {
        this.pumping = null;
        // A record accepted between the loop's last check and here: started as its accept asked (its pump
        // found this loop still running), lingering if deliveries were coming.
        if (this.pending.length > 0 && !this.abandoned) this.pump(this.lastLingerMs);
      });
  }

  /** Keeps the record in failed.ndjson; false when even that write fails (it then stays at the head). */
  private setAside(record: IntakeRecord, error: unknown): boolean {
    const { log } = this.options;
    try {
      const path = this.journal.setAside(record, (error as Error).message);
      log.error(
        { err: error, deliveryId: record.deliveryId, kind: record.kind, setAside: path },
        "delivery could not be applied; set aside for a person to look at",
      );
      return true;
    } catch (writeError) {
      log.error(
        { err: writeError, deliveryId: record.deliveryId },
        "delivery could not be applied nor set aside; it stays first in line",
      );
      return false;
    }
  }

  private async drain(): Promise<void> {
    const { log } = this.options;
    const base = this.options.retryDelayMs ?? 100;
    const cap = this.options.maxRetryDelayMs ?? 30_000;
    const recordAttempts = this.options.recordAttempts ?? 5;
    const { batches } = this.options;
    let failures = 0;
    let recordFailures = 0;
    /** After a group failed: one record at a time until one applies, so a record that fails is found alone. */
    let alone = false;
    while (this.pending.length > 0 && !this.abandoned) {
      const record = this.pending[0]!;
      const n = batches && !alone && failures === 0 ? Math.max(1, batches.size(this.pending)) : 1;
      try {
        if (n > 1) await batches!.apply(this.pending.slice(0, n));
        else await this.options.apply(record);
      } catch (error) {
        if (n > 1) {
          log.debug({ err: error, records: n, backlog: this.pending.length }, "group apply failed; one at a time");
          alone = true;
          continue;
        }
        failures++;
        const kind = classifyApplyError(error);
        if (kind === "record" && ++recordFailures >= recordAttempts && this.setAside(record, error)) {
          // set aside: the loop moves on to the next record
        } else {
          const delayMs = Math.min(cap, base * 2 ** (failures - 1));
          log.warn(
            {
              err: error,
              deliveryId: record.deliveryId,
              failure: kind,
              attempt: failures,
              retryInMs: delayMs,
              backlog: this.pending.length,
            },
            "delivery not applied yet; retrying",
          );
          await sleep(delayMs, undefined, { ref: false });
          continue;
        }
      }
      this.pending.splice(0, n);
      failures = 0;
      recordFailures = 0;
      alone = false;
      if (this.pending.length === 0) {
        // Everything written is applied: the journal can start again (no await between the check and
        // the truncate, so no accepted line is lost to it).
        this.journal.clear(JOURNAL_CLEAR_BYTES);
        for (const resolve of this.waiters.splice(0)) resolve();
      }
    }
  }
}
