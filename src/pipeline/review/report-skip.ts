import type { Logger } from "pino";
import type { Run } from "../../db/schema.js";
import { ensureCheckRun } from "../publish/ensure-check-run.js";
import { configProblemNote } from "../render/config-problem-note.js";
import type { RunContext } from "../job/run-context.js";
import type { SkipReason } from "./skip-reason.js";

/**
 * A skipped review said where the team looks: the reason in the log, and a neutral check run on the head
 * naming the setting and how to review anyway (with the config's problems, if any). A head reviewed
 * already keeps its check run: the review's verdict stands.
 */
export async function reportSkip(ctx: RunContext, run: Run, skip: SkipReason, log: Logger): Promise<void> {
  log.info({ rule: skip.rule, reason: skip.reason, headSha: run.headSha }, "review skipped");
  if (run.lastReviewedSha === run.headSha) return;
  await ensureCheckRun(ctx.github, ctx.ref, run.headSha, {
    status: "completed",
    conclusion: "neutral",
    title: "Review skipped",
    summary: skipSummary(skip, ctx.configProblems),
  });
}

/** The skipped check run's summary (markdown; the reason's PR text is already escaped). */
export function skipSummary(skip: SkipReason, configProblems: readonly string[]): string {
  const lines = [
    `Not reviewed automatically: ${skip.reason}.`,
    "",
    "Comment `/no-mistakes review` on the PR to review it anyway.",
  ];
  for (const problem of configProblems) lines.push("", configProblemNote(problem));
  return lines.join("\n");
}
