import type { Logger } from "pino";
import type { ConfigProblem } from "../../config/repo/config-problem.js";
import { listFindings } from "../../db/findings.js";
import type { Finding, Run } from "../../db/schema.js";
import { blockingFindings } from "../ledger/blocking-findings.js";
import { ensureCheckRun } from "../publish/ensure-check-run.js";
import { configProblemNote } from "../render/config-problem-note.js";
import { renderCheckOutput } from "../render/render-check-output.js";
import { withConfigProblems } from "../render/with-config-problems.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import type { RunContext } from "../job/run-context.js";
import type { SkipReason } from "./skip-reason.js";
import { skipVerdict, type SkipVerdict } from "./skip-verdict.js";

/**
 * A skipped review said where the team looks: the reason in the log, and a check run on the head naming
 * the setting, how to review anyway and — from the PR's standing — whether the check passes (see
 * skipVerdict), with the config's problems, if any. A head reviewed already keeps its check run: the
 * review's verdict stands.
 */
export async function reportSkip(
  deps: Pick<PipelineDeps, "db">,
  ctx: RunContext,
  run: Run,
  skip: SkipReason,
  log: Logger,
): Promise<void> {
  if (run.lastReviewedSha === run.headSha) {
    log.info({ rule: skip.rule, reason: skip.reason, headSha: run.headSha }, "review skipped");
    return;
  }
  const findings = await listFindings(deps.db, run.id);
  const failOn = ctx.config.review.fail_on;
  const blocking = blockingFindings(findings, failOn);
  const verdict = skipVerdict(skip, { blocking: blocking.length, failOn, lastReviewedSha: run.lastReviewedSha });
  const { conclusion, title } = withConfigProblems(verdict, ctx.configProblems);
  log.info({ rule: skip.rule, reason: skip.reason, headSha: run.headSha, conclusion }, "review skipped");
  await ensureCheckRun(ctx.github, ctx.ref, run.headSha, {
    status: "completed",
    conclusion,
    title,
    summary: skipSummary(skip, ctx.configProblems, verdict, blocking),
  });
}

/** The skipped check run's summary (markdown; the reason's PR text is already escaped). */
export function skipSummary(
  skip: SkipReason,
  configProblems: readonly ConfigProblem[],
  verdict: SkipVerdict,
  blocking: Finding[] = [],
): string {
  const lines = [
    `Not reviewed automatically: ${skip.reason}.`,
    "",
    verdict.detail,
    "",
    "Comment `/no-mistakes review` on the PR to review it anyway.",
  ];
  if (blocking.length > 0) lines.push("", renderCheckOutput(blocking, []).summary);
  for (const problem of configProblems) lines.push("", configProblemNote(problem));
  return lines.join("\n");
}
