import type { Agent } from "../../agents/types.js";
import type { Database } from "../../db/database.js";
import type { Metrics } from "../../metrics/metrics.js";

/** What the steps of a turn share: RunSessionsOptions with their defaults filled in. */
export interface SessionDeps {
  db: Database;
  agent: Agent;
  /** Turn times, fallbacks, tokens and spend; absent = nothing recorded. */
  metrics: Metrics | undefined;
  /** Exported session state larger than this (compressed) is not stored. */
  maxStateBytes: number;
  /** Transient agent failures are retried this many times, with exponential backoff. */
  transientRetries: number;
  retryBaseDelayMs: number;
  /** A stored session whose largest request would pass this many input tokens rolls over. */
  sessionBudget: number;
  /** How long the provider keeps a prompt cache entry after its last use. */
  cacheTtlMs: number;
  /** The clock. */
  now: () => number;
}
