import type { MetricObjectWithValues, MetricValue } from "prom-client";

/** Where ROLE=all's worker process finds the embedded database (its socket directory). */
export const EMBEDDED_SOCKET_ENV = "NO_MISTAKES_EMBEDDED_SOCKET";

/**
 * What the app asks of its worker process: stop; its metrics; sweep failed deliveries now (it was
 * started for that alone: it asks to exit once the sweep is done, unless there is work).
 */
export type ToWorker = { type: "stop"; graceMs: number } | { type: "metrics"; id: number } | { type: "sweep" };

/**
 * What the worker process tells the app: ready; metrics; idle — nothing running, waiting or retrying
 * for `idleMs` (or a sweep-only start's sweep is done): the app decides whether it stops.
 */
export type FromWorker =
  | { type: "ready" }
  | { type: "metrics"; id: number; json: MetricObjectWithValues<MetricValue<string>>[] }
  | { type: "idle"; idleMs: number; reason: string };
