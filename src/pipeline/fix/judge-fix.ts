import type { Finding } from "../../db/schema.js";
import { findingId } from "../../domain/finding-id.js";
import type { CheckRun } from "../checks/run-checks.js";
import type { ReproducerRun } from "../checks/run-reproducer.js";
import type { FixProof, ProofFailure } from "./fix-turn.js";

/** A claimed finding's reproducer as it ran on the fix. */
export interface ClaimedReproducer {
  finding: Finding;
  command: string;
  run: ReproducerRun;
}

/**
 * Each claimed finding's reproducer must now pass. Still failing blocks the push; broken (it did not run as a
 * test: stopped, out of time, not runnable, or failing without its predicted text) blocks it too, since then
 * nothing shows the fix works — unless it was broken on the PR's head too (at the review): a test that never
 * ran proves nothing either way, so it is reported and the checks and the verifier judge that finding.
 */
export function judgeReproducers(
  runs: readonly ClaimedReproducer[],
): Pick<FixProof, "failures" | "passing" | "brokenBefore"> {
  const failures: ProofFailure[] = [];
  const passing: FixProof["passing"] = [];
  const brokenBefore: FixProof["brokenBefore"] = [];
  for (const { finding, command, run } of runs) {
    const id = findingId(finding.number);
    if (run.outcome === "not-reproduced") passing.push({ finding, command });
    else if (finding.reproduction === "broken") brokenBefore.push({ finding, command, why: run.why });
    else
      failures.push({
        what:
          run.outcome === "reproduced"
            ? `${id}'s reproducer still fails`
            : `${id}'s reproducer cannot tell whether the fix works`,
        command,
        why: run.why,
        output: run.output,
      });
  }
  return { failures, passing, brokenBefore };
}

/**
 * The configured checks on the fix against the same checks on the tip the fixer started from: one that
 * passed before and fails after blocks the push; one that did not pass before either (or could not be run
 * there) is reported, not blamed. `before` is absent when every check passed on the fix (nothing to compare).
 */
export function compareChecks(
  after: readonly CheckRun[],
  before: readonly CheckRun[] | undefined,
): Pick<FixProof, "failures" | "passed" | "failedBefore"> {
  const failures: ProofFailure[] = [];
  const passed: string[] = [];
  const failedBefore: string[] = [];
  for (const check of after) {
    if (check.outcome === "passed") passed.push(check.name);
    else if (before?.find((b) => b.name === check.name && b.command === check.command)?.outcome === "passed")
      failures.push({
        what: `the check \`${check.name.replace(/`/g, "'")}\` passed before the fix and fails after it`,
        command: check.command,
        why: checkEnding(check),
        output: check.output,
      });
    else failedBefore.push(check.name);
  }
  return { failures, passed, failedBefore };
}

/** How a check that did not pass ended, in words. */
function checkEnding(check: CheckRun): string {
  switch (check.outcome) {
    case "timed-out":
      return "it passed its time limit";
    case "limit":
      return "the sandbox stopped it at a resource limit";
    case "error":
      return "it could not run";
    default:
      return check.exitCode === null ? "it failed" : `it exited ${check.exitCode}`;
  }
}
