import type { PipelineDeps } from "../job/pipeline-deps.js";
import type { RunContext } from "../job/run-context.js";
import type { PrepareFor, PreparedHead } from "./prepared-head.js";
import { checkOutcome, recordExecution } from "./record-execution.js";

/** One configured check as it ran on a head. */
export interface CheckRun {
  name: string;
  command: string;
  /** passed | failed | timed-out | limit | error */
  outcome: string;
  exitCode: number | null;
  durationMs: number;
  /** The end of its output (the PR author's text). */
  output: string;
  executionId: number;
}

/** The repository's configured checks on a prepared head, with no network; each recorded. */
export async function runChecks(
  deps: PipelineDeps,
  ctx: RunContext,
  head: PreparedHead,
  at: PrepareFor,
): Promise<CheckRun[]> {
  const runner = deps.checks!.runner;
  return Promise.all(
    ctx.config.checks.commands.map(async (check) => {
      const result = await runner.run({
        kind: "check",
        workspace: head.scratch,
        command: check.run,
        layers: head.layers,
        timeoutMs: check.timeout * 1000,
      });
      const outcome = checkOutcome(result);
      const record = {
        runId: ctx.run.id,
        turnId: at.turnId,
        headSha: head.sha,
        kind: "check" as const,
        phase: at.phase,
      };
      const executionId = await recordExecution(
        deps,
        { ...record, name: check.name, command: check.run, outcome },
        result,
      );
      return {
        name: check.name,
        command: check.run,
        outcome,
        exitCode: result.exitCode,
        durationMs: result.durationMs,
        output: result.output,
        executionId,
      };
    }),
  );
}
