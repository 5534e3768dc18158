import type { Logger } from "pino";
import type { Database } from "../db/database.js";
import { insertRefusal, type RefusalRow } from "../db/refusals.js";
import { createSecretRedactor } from "../logging/redact-secrets.js";
import type { Metrics } from "../metrics/metrics.js";
import { WEBHOOK_REFUSAL_KINDS, type RefusalKind } from "./refusal-kind.js";
import { RefusalWindows } from "./refusal-windows.js";

/** Something the app refused, as the place that refused it says it. */
export interface Refusal {
  kind: RefusalKind;
  repositoryFullName?: string | null;
  prNumber?: number | null;
  /** Who or what was refused: a GitHub login, or a role (`fixer`, `reviewer`). */
  actor?: string | null;
  /**
   * What an operator can act on: what was refused and why. Never a request body or a token: it is
   * redacted here all the same (the app's secrets and every token shape) and cut to REASON_MAX.
   */
  reason: string;
}

export interface RefusalsOptions {
  db: Database;
  log: Logger;
  /** Where refusals_total is counted; absent = not counted (the rows are still written). */
  metrics?: Metrics;
  /** The app's secret values (EnvConfig.secrets), redacted from every reason with the token shapes. */
  secrets?: readonly string[];
  /** Webhook refusals: at most one row per kind in this long. Default 60 s. */
  windowMs?: number;
}

/** A reason is kept up to this many characters (after redaction, so no token is cut into a shape it no longer has). */
export const REASON_MAX = 500;

/**
 * The one place a refusal is recorded: `refuse` counts refusals_total{kind} and writes the refusals row the
 * operator page lists, together, so the metric and the table cannot disagree. Nothing else counts
 * refusals_total or writes the table.
 *
 * Refusals of a job or a command get a row each, and `refuse` resolves once it is written. Webhook
 * refusals (WEBHOOK_REFUSAL_KINDS) happen while a request is being answered, at a rate whoever reaches the
 * URL decides: `refuse` returns at once, having only counted; the row is written after the answer, at most
 * one per kind a minute with a count (RefusalWindows). A row that cannot be written is logged at warn and
 * never fails what refused (a job's reply, a webhook's answer).
 */
export class Refusals {
  readonly #writes = new Set<Promise<void>>();
  readonly #windows: RefusalWindows;
  readonly #redact: (text: string) => string;
  #stopped = false;

  constructor(private readonly options: RefusalsOptions) {
    this.#redact = createSecretRedactor(options.secrets ?? []);
    this.#windows = new RefusalWindows((row) => void this.#write(row, true), options.windowMs ?? 60_000);
  }

  /** Counts the refusal and keeps it for the operator page (see the class). Never rejects. */
  refuse(refusal: Refusal): Promise<void> {
    this.options.metrics?.refusals.inc({ kind: refusal.kind });
    const row: RefusalRow = {
      kind: refusal.kind,
      repositoryFullName: refusal.repositoryFullName ?? null,
      prNumber: refusal.prNumber ?? null,
      actor: refusal.actor ?? null,
      reason: this.#redact(refusal.reason).slice(0, REASON_MAX),
    };
    if (!WEBHOOK_REFUSAL_KINDS.has(refusal.kind)) return this.#write(row, false);
    if (!this.#stopped) this.#windows.add(row);
    return Promise.resolve();
  }

  /** Resolves once every row begun so far is written (or its failure logged). */
  async settled(): Promise<void> {
    while (this.#writes.size > 0) await Promise.all(this.#writes);
  }

  /** Writes the webhook refusals the open windows hold (instead of when their minute ends), and waits for every row. */
  async flush(): Promise<void> {
    this.#windows.flush();
    await this.settled();
  }

  /** Before the database closes: what the windows hold is written; later webhook refusals are only counted. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.flush();
  }

  /** Writes a row, after the current request's answer when `later`; a failure is logged, never thrown. */
  #write(row: RefusalRow, later: boolean): Promise<void> {
    const start = later ? new Promise<void>((resolve) => setImmediate(resolve)) : Promise.resolve();
    const write = start
      .then(() => insertRefusal(this.options.db, row))
      .catch((error: unknown) =>
        this.options.log.warn(
          { err: error, kind: row.kind, count: row.count ?? 1 },
          "refusal not recorded for the operator page",
        ),
      )
      .finally(() => this.#writes.delete(write));
    this.#writes.add(write);
    return write;
  }
}
