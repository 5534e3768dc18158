import type { MetricObjectWithValues, MetricValue } from "prom-client";

/** Where ROLE=all's worker process finds the embedded database (its socket directory). */
export const EMBEDDED_SOCKET_ENV = "NO_MISTAKES_EMBEDDED_SOCKET";

/** What the app asks of its worker process. */
export type ToWorker = { type: "stop"; graceMs: number } | { type: "metrics"; id: number };

/** What the worker process tells the app. */
export type FromWorker =
  { type: "ready" } | { type: "metrics"; id: number; json: MetricObjectWithValues<MetricValue<string>>[] };
