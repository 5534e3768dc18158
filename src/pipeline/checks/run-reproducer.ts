import { randomBytes } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { ranToExit, type ExecutionResult } from "../../checks/index.js";
import type { Reproducer } from "../../db/schema.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import type { RunContext } from "../job/run-context.js";
import type { PrepareFor, PreparedHead } from "./prepared-head.js";
import { recordExecution } from "./record-execution.js";
import { reproducerProblem, writeReproducerFiles } from "./reproducer-files.js";
import { sandboxRefusal } from "./sandbox-refusal.js";

/** What the app saw: the command failed as predicted, passed, or did not run as a test at all. */
export type Reproduction = "reproduced" | "not-reproduced" | "broken";

export interface ReproducerRun {
  outcome: Reproduction;
  /** In words: `exited 1`, `passed`, `timed out after 120 s`, `failed, but without "expected 3"`. */
  why: string;
  exitCode: number | null;
  durationMs: number;
  /** The end of its output (the PR author's and the model's text). */
  output: string;
  executionId?: number;
}

/** Exit codes of a shell that could not run the command at all (not executable, not found). */
const NOT_RUN = new Set([126, 127]);

/**
 * How a reproducer's run reads. Reproduced only when it ran to a failing exit of its own (and its output
 * holds `expect`, when given); stopped by the sandbox, out of time, a command that could not start, or a
 * failure the sandbox caused (the network, a path outside the checkout: see sandboxRefusal) is broken — never
 * reproduced.
 */
export function reproductionOf(
  result: ExecutionResult,
  expect: string | undefined,
): { outcome: Reproduction; why: string } {
  if (result.error !== undefined) return { outcome: "broken", why: `it could not run: ${result.error}` };
  if (result.limit !== undefined) return { outcome: "broken", why: result.limit };
  if (result.timedOut) return { outcome: "broken", why: "it passed its time limit" };
  if (!ranToExit(result)) return { outcome: "broken", why: `it was killed (${result.signal ?? "no exit"})` };
  if (result.exitCode === 0) return { outcome: "not-reproduced", why: "it passed" };
  if (NOT_RUN.has(result.exitCode!))
    return { outcome: "broken", why: `its command could not run (exit ${result.exitCode})` };
  const refused = sandboxRefusal(result.output);
  if (refused !== undefined) return { outcome: "broken", why: refused };
  if (expect !== undefined && expect !== "" && !result.output.includes(expect))
    return {
      outcome: "broken",
      why: `it exited ${result.exitCode}, but its output does not hold ${JSON.stringify(expect.slice(0, 80))}`,
    };
  return { outcome: "reproduced", why: `it exited ${result.exitCode}` };
}

/** Runs a reproducer on a prepared head (its files stacked over the checkout, no network) and records it. */
export async function runReproducer(
  deps: PipelineDeps,
  ctx: RunContext,
  head: PreparedHead,
  reproducer: Reproducer,
  at: PrepareFor & { findingId?: number | undefined },
): Promise<ReproducerRun> {
  const problem = reproducerProblem(reproducer);
  if (problem !== undefined) return { outcome: "broken", why: problem, exitCode: null, durationMs: 0, output: "" };
  const checks = deps.checks!;
  const files = join(checks.scratchDir, `repro-${randomBytes(6).toString("hex")}`);
  try {
    await mkdir(files, { recursive: true });
    await writeReproducerFiles(reproducer, files);
    const result = await checks.runner.run({
      kind: "reproducer",
      workspace: head.scratch,
      command: reproducer.command,
      layers: [files, ...head.layers],
      timeoutMs: ctx.config.verify.reproducer_timeout * 1000,
    });
    const { outcome, why } = reproductionOf(result, reproducer.expect);
    const record = { runId: ctx.run.id, turnId: at.turnId, findingId: at.findingId, headSha: head.sha };
    const executionId = await recordExecution(
      deps,
      {
        ...record,
        kind: "reproducer",
        phase: at.phase,
        name: reproducer.command,
        command: reproducer.command,
        outcome,
      },
      result,
    );
    return {
      outcome,
      why,
      exitCode: result.exitCode,
      durationMs: result.durationMs,
      output: result.output,
      executionId,
    };
  } finally {
    await rm(files, { recursive: true, force: true });
  }
}
