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
import { actionInstruments } from "./action-instruments.js";
import { agentInstruments } from "./agent-instruments.js";
import { executionInstruments } from "./execution-instruments.js";
import { findingOutcomesGauge } from "./finding-outcomes-gauge.js";
import { InFlightDeliveries } from "./in-flight-deliveries.js";
import { queueInstruments } from "./queue-instruments.js";
import { webhookInstruments } from "./webhook-instruments.js";
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

/**
 * The app's Prometheus instruments, on a registry of their own (never prom-client's global one, so
 * several can live in one process). Code paths record into it when their dependencies carry it; the
 * gauges that describe state (intake backlog, queue) are read from callbacks when scraped. The instruments
 * are defined by concern, in the order they are exposed: webhooks, queue, agents, actions, executions,
 * finding outcomes.
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
    const webhook = webhookInstruments(registers, options.intakeBacklog);
    this.webhookAckSeconds = webhook.ackSeconds;
    this.webhookDeliveries = webhook.deliveries;
    this.intakeBacklog = webhook.intakeBacklog;
    const queue = queueInstruments(registers, () => this.#queueStats());
    this.queueJobs = queue.jobs;
    this.queueOldestJobAge = queue.oldestJobAge;
    const agent = agentInstruments(registers);
    this.agentTurnSeconds = agent.turnSeconds;
    this.agentFallbacks = agent.fallbacks;
    this.agentTokens = agent.tokens;
    this.agentCostUsd = agent.costUsd;
    const actions = actionInstruments(registers);
    this.githubRequests = actions.githubRequests;
    this.refusals = actions.refusals;
    this.fixPushes = actions.fixPushes;
    const executions = executionInstruments(registers);
    this.executions = executions.executions;
    this.executionSeconds = executions.executionSeconds;
    this.setupCache = executions.setupCache;
    this.egressRefusals = executions.egressRefusals;
    this.findingOutcomes = findingOutcomesGauge(registers, options.findingOutcomes, options.log);
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
