import type { Logger } from "pino";
import {
  AggregatorRegistry,
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type MetricObjectWithValues,
  type MetricValue,
} from "prom-client";
import { InFlightDeliveries } from "./in-flight-deliveries.js";
import type { FindingOutcomeStat } from "./finding-outcome-stats.js";
import type { QueueStat } from "./queue-stats.js";

export interface MetricsOptions {
  /** Read at every scrape: deliveries answered but not yet written to the database. */
  intakeBacklog?: () => number | undefined;
  /** Read at every scrape: pg-boss jobs per queue and state (see queueStats). */
  queueStats?: () => Promise<QueueStat[]>;
  /** Read at every scrape: posted findings by repository, agent, model and outcome (see findingOutcomeStats). */
  findingOutcomes?: () => Promise<FindingOutcomeStat[]>;
  /** Where a failed `queueStats` or `findingOutcomes` is reported (the scrape still answers, without those gauges). */
  log?: Logger;
  /** Node's process metrics (CPU, memory, event loop lag, GC). Default true. */
  processMetrics?: boolean;
  /** Instruments of another process of this app (ROLE=all's worker process), served merged with these. */
  more?: () => Promise<MetricObjectWithValues<MetricValue<string>>[] | undefined>;
}

/** Job states that are still waiting to run: the age of their oldest is how far behind the queue is. */
const WAITING_STATES = new Set(["created", "retry"]);

/**
 * The app's Prometheus instruments, on a registry of their own (never prom-client's global one, so
 * several can live in one process). Code paths record into it when their dependencies carry it; the
 * gauges that describe state (intake backlog, queue) are read from callbacks when scraped.
 */
export class Metrics {
  readonly registry = new Registry();
  /** Webhook request start → answer written, on the webhook path, whatever the outcome. */
  readonly webhookAckSeconds: Histogram;
  /** accepted / ignored (2xx) / rejected (4xx) / failed (5xx) when answered; duplicate when applied. */
  readonly webhookDeliveries: Counter<"event" | "outcome">;
  readonly intakeBacklog: Gauge;
  readonly queueJobs: Gauge<"queue" | "state">;
  readonly queueOldestJobAge: Gauge<"queue">;
  /** Wall time of a finished agent turn (RunSessions.run), by role and session mode. */
  readonly agentTurnSeconds: Histogram<"role" | "mode">;
  readonly agentFallbacks: Counter<"reason">;
  readonly agentTokens: Counter<"role" | "kind">;
  readonly agentCostUsd: Counter<"role">;
  readonly githubRequests: Counter<"method" | "status">;
  readonly refusals: Counter<"kind">;
  readonly fixPushes: Counter<"outcome">;
  /** Runs of repositories' own code (setups, checks, reproducers) by kind and outcome: see observeExecution. */
  readonly executions: Counter<"kind" | "outcome">;
  readonly executionSeconds: Histogram<"kind">;
  readonly setupCache: Counter<"result">;
  /** Connections a setup's egress proxy refused (a host that is not an allowed registry). */
  readonly egressRefusals: Counter;
  /**
   * Posted findings by what became of them, read from the database at each scrape: an outcome can be undone
   * (a finding raised again, a PR reopened) and several replicas share the database, so only the database
   * knows the count; a counter per process would add up wrongly. Labels: repositories × agents × models × 6.
   */
  readonly findingOutcomes: Gauge<"repository" | "agent" | "model" | "outcome">;
  /** Webhook requests being answered: the intake marks the ones it accepted. */
  readonly deliveries = new InFlightDeliveries();

  #queueSnapshot: Promise<QueueStat[] | undefined> | undefined;

  constructor(private readonly options: MetricsOptions = {}) {
    const registers = [this.registry];
    this.webhookAckSeconds = new Histogram({
      name: "webhook_ack_seconds",
      help: "Time from a webhook request's start to its answer being written.",
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.webhookDeliveries = new Counter({
      name: "webhook_deliveries_total",
      help: "Webhook deliveries by event and outcome: accepted, ignored, rejected (4xx), failed (5xx) when answered; duplicate when the intake finds the delivery already recorded, replay when its body was applied under another delivery id.",
      labelNames: ["event", "outcome"],
      registers,
    });
    const backlog = options.intakeBacklog;
    this.intakeBacklog = new Gauge({
      name: "intake_backlog",
      help: "Deliveries answered but not yet written to the database.",
      registers,
      collect() {
        const value = backlog?.();
        if (value !== undefined) this.set(value);
      },
    });
    const metrics = this;
    this.queueJobs = new Gauge({
      name: "queue_jobs",
      help: "pg-boss jobs per queue and state.",
      labelNames: ["queue", "state"],
      registers,
      async collect() {
        const stats = await metrics.#queueStats();
        this.reset();
        for (const s of stats ?? []) this.set({ queue: s.queue, state: s.state }, s.count);
      },
    });
    this.queueOldestJobAge = new Gauge({
      name: "queue_oldest_job_age_seconds",
      help: "Age of the oldest job waiting to run (created or retry) per queue; 0 when none waits.",
      labelNames: ["queue"],
      registers,
      async collect() {
        const stats = await metrics.#queueStats();
        this.reset();
        const oldest = new Map<string, number>();
        for (const s of stats ?? []) {
          const age = WAITING_STATES.has(s.state) ? (s.oldestAgeSeconds ?? 0) : 0;
          oldest.set(s.queue, Math.max(oldest.get(s.queue) ?? 0, age));
        }
        for (const [queue, age] of oldest) this.set({ queue }, age);
      },
    });
    this.agentTurnSeconds = new Histogram({
      name: "agent_turn_seconds",
      help: "Wall time of finished agent turns by role and session mode (started, resumed, fallback, cold).",
      labelNames: ["role", "mode"],
      buckets: [1, 5, 10, 30, 60, 120, 300, 600, 900, 1800, 3600],
      registers,
    });
    this.agentFallbacks = new Counter({
      name: "agent_fallbacks_total",
      help: "Agent turns that could not continue their stored session, by reason.",
      labelNames: ["reason"],
      registers,
    });
    this.agentTokens = new Counter({
      name: "agent_tokens_total",
      help: "Model tokens the agent reported, by role and kind (input, output).",
      labelNames: ["role", "kind"],
      registers,
    });
    this.agentCostUsd = new Counter({
      name: "agent_cost_usd_total",
      help: "Model spend in dollars as the agent reported it (Codex reports none), by role.",
      labelNames: ["role"],
      registers,
    });
    this.githubRequests = new Counter({
      name: "github_requests_total",
      help: "Requests to GitHub's API by method and status (error: no HTTP answer).",
      labelNames: ["method", "status"],
      registers,
    });
    this.refusals = new Counter({
      name: "refusals_total",
      help: "Things the app refused to do or take, by kind.",
      labelNames: ["kind"],
      registers,
    });
    this.fixPushes = new Counter({
      name: "fix_pushes_total",
      help: "Fixer commits by outcome: accepted (pushed) or refused (not pushed; the reply carries the patch).",
      labelNames: ["outcome"],
      registers,
    });
    this.executions = new Counter({
      name: "executions_total",
      help: "Runs of a repository's own code by kind (setup, check, reproducer) and outcome (passed, failed, timed-out, limit, error; reproduced, not-reproduced, broken); a setup reused from the cache counts as passed.",
      labelNames: ["kind", "outcome"],
      registers,
    });
    this.executionSeconds = new Histogram({
      name: "execution_seconds",
      help: "Wall time of runs of a repository's own code that ran (a setup reused from the cache did not), by kind.",
      labelNames: ["kind"],
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1200, 1800],
      registers,
    });
    this.setupCache = new Counter({
      name: "setup_cache_total",
      help: "Setups by whether the cache had them: hit (reused) or miss (run, to fill it).",
      labelNames: ["result"],
      registers,
    });
    this.egressRefusals = new Counter({
      name: "egress_refusals_total",
      help: "Connections from a sandboxed setup that its egress proxy refused: the host is not an allowed registry.",
      registers,
    });
    const log = options.log;
    const readOutcomes = options.findingOutcomes;
    this.findingOutcomes = new Gauge({
      name: "findings_outcomes",
      help: "Posted findings by repository, the agent and model whose review raised them, and outcome: fixed, dismissed, withdrawn, open-at-merge, abandoned, or open (none yet).",
      labelNames: ["repository", "agent", "model", "outcome"],
      registers,
      async collect() {
        this.reset();
        if (!readOutcomes) return;
        try {
          for (const s of await readOutcomes())
            this.set({ repository: s.repository, agent: s.agent, model: s.model, outcome: s.outcome }, s.count);
        } catch (error) {
          log?.warn({ err: error }, "finding outcome metrics could not be read");
        }
      },
    });
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry });
  }

  /** One recorded execution: counted by kind and outcome, timed when it ran, and a setup as a cache hit or miss. */
  observeExecution(kind: string, outcome: string, durationMs: number, cached: boolean): void {
    this.executions.inc({ kind, outcome });
    if (!cached) this.executionSeconds.observe({ kind }, durationMs / 1000);
    if (kind === "setup") this.setupCache.inc({ result: cached ? "hit" : "miss" });
  }

  /** The exposition text of every metric (callbacks are read now). */
  async text(): Promise<string> {
    const more = await this.options.more?.();
    if (!more?.length) return this.registry.metrics();
    // Counters and histograms of both processes add up; the process metrics are this process's alone.
    return AggregatorRegistry.aggregate([await this.registry.getMetricsAsJSON(), more]).metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** One queue query per scrape, shared by the two queue gauges (the registry collects them concurrently). */
  #queueStats(): Promise<QueueStat[] | undefined> {
    const read = this.options.queueStats;
    if (!read) return Promise.resolve(undefined);
    this.#queueSnapshot ??= Promise.resolve()
      .then(read)
      .catch((error: unknown) => {
        this.options.log?.warn({ err: error }, "queue metrics could not be read");
        return undefined;
      })
      .finally(() => (this.#queueSnapshot = undefined));
    return this.#queueSnapshot;
  }
}
