import type { ExecutionKind, ExecutionResult } from "../../checks/index.js";
import { insertExecution } from "../../db/executions.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";

/** The execution's outcome, for a setup or a check: passed | failed | timed-out | limit | error. */
export function checkOutcome(result: ExecutionResult): string {
  if (result.error !== undefined) return "error";
  if (result.limit !== undefined) return "limit";
  if (result.timedOut) return "timed-out";
  return result.exitCode === 0 ? "passed" : "failed";
}

/** What the output tail keeps in the database: its end, where a runner prints its failures. */
const STORED_TAIL = 8 * 1024;

export interface ExecutionRecord {
  runId: number;
  turnId?: number | undefined;
  findingId?: number | undefined;
  headSha: string;
  kind: ExecutionKind;
  phase: "review" | "before" | "after";
  name: string;
  command: string;
  outcome: string;
  cached?: boolean;
}

/** Keeps one execution (a row of `executions`) and counts it in the metrics; returns its id. */
export function recordExecution(
  deps: Pick<PipelineDeps, "db" | "metrics">,
  record: ExecutionRecord,
  result: ExecutionResult,
): Promise<number> {
  deps.metrics?.observeExecution(record.kind, record.outcome, result.durationMs, record.cached ?? false);
  return insertExecution(deps.db, {
    runId: record.runId,
    turnId: record.turnId ?? null,
    findingId: record.findingId ?? null,
    headSha: record.headSha,
    kind: record.kind,
    phase: record.phase,
    name: record.name.slice(0, 200),
    command: record.command.slice(0, 4000),
    outcome: record.outcome,
    exitCode: result.exitCode,
    durationMs: Math.round(result.durationMs),
    outputDigest: result.outputDigest,
    outputTail: result.output.slice(-STORED_TAIL),
    cached: record.cached ?? false,
  });
}
