import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { MetricObjectWithValues, MetricValue } from "prom-client";
import type { Logger } from "pino";
import type { MetricsConfig } from "../config/env/metrics-config.js";
import type { DatabaseHandle } from "../db/database.js";
import { createMetricsHandler } from "./create-metrics-handler.js";
import { Metrics } from "./metrics.js";
import { observeWebhookRequests } from "./observe-webhook-requests.js";
import { findingOutcomeStats } from "./finding-outcome-stats.js";
import { queueStats } from "./queue-stats.js";
import { serveMetrics } from "./serve-metrics.js";

export interface StartedMetrics {
  metrics: Metrics;
  /** For the main server: GET /metrics with the bearer token when METRICS_TOKEN is set; otherwise never answers (false). */
  handler: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
  /** The metrics listener's port, when METRICS_PORT is set. */
  port?: number;
  /** Times and counts the webhook requests of the main server (call once it is listening); not when nothing is served. */
  observe(server: Server): void;
  stop(): Promise<void>;
}

/**
 * The app's metrics and where they are exposed: on the main port only behind METRICS_TOKEN, and on a
 * listener of its own (METRICS_PORT, default host 127.0.0.1) without it. With neither, they are
 * counted but not served, and neither Node's process metrics nor the webhook requests (the
 * `webhook_*` series) are collected. The queue gauges are read once the queue has started (`queue()` defined),
 * the backlog from the intake when there is one.
 */
export async function startMetrics(options: {
  config: MetricsConfig;
  log: Logger;
  database: DatabaseHandle;
  webhookPath: string;
  queue?: () => unknown;
  intake?: () => { backlog(): number } | undefined;
  /** Another process's instruments to serve merged (ROLE=all's worker process). */
  more?: () => Promise<MetricObjectWithValues<MetricValue<string>>[] | undefined>;
}): Promise<StartedMetrics> {
  const { config, log, database } = options;
  const served = config.server !== undefined || config.token !== undefined;
  const metrics = new Metrics({
    log,
    // Node's process metrics keep a timer waking the event loop every 10 ms (the event-loop lag monitor):
    // only when someone can read them.
    processMetrics: served,
    intakeBacklog: () => options.intake?.()?.backlog(),
    more: options.more,
    queueStats: async () =>
      options.queue?.() === undefined ? [] : queueStats((text, values) => database.executeSql(text, values)),
    // Only where someone can read them: the statement groups every posted finding.
    ...(served
      ? { findingOutcomes: () => findingOutcomeStats((text, values) => database.executeSql(text, values)) }
      : {}),
  });
  const listener = config.server
    ? await serveMetrics(createMetricsHandler(metrics, { token: undefined }), { ...config.server, log })
    : undefined;
  if (listener) log.info({ port: listener.port, host: config.server!.host }, "metrics listening");
  if (config.token) log.info("metrics served on the main port at /metrics, for the bearer token only");
  if (!listener && !config.token) log.info("metrics not served (set METRICS_TOKEN or METRICS_PORT to expose /metrics)");
  const handler = config.token ? createMetricsHandler(metrics, { token: config.token }) : async () => false;
  const unobserve: Array<() => void> = [];
  return {
    metrics,
    handler,
    ...(listener ? { port: listener.port } : {}),
    // Timing and counting every webhook request is work for nobody when the metrics are not served.
    observe: (server) =>
      void (served && unobserve.push(observeWebhookRequests(server, metrics, { path: options.webhookPath }))),
    async stop() {
      for (const off of unobserve.splice(0)) off();
      await listener?.close();
    },
  };
}
