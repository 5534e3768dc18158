import type { RepoConfig } from "../../config/repo/repo-config.js";
import { checksConfigured } from "../checks/checks-policy.js";
import { prepareHead } from "../checks/prepare-head.js";
import type { PreparedHead, SetupOutcome } from "../checks/prepared-head.js";
import { runChecks, type CheckRun } from "../checks/run-checks.js";
import { runReproducer } from "../checks/run-reproducer.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import type { BranchTip, FixCommit, FixProof, FixTurn } from "./fix-turn.js";
import { compareChecks, judgeReproducers, type ClaimedReproducer } from "./judge-fix.js";

/** The configured checks on the tip the fixer started from (undefined when they could not be run there). */
export type ChecksBefore = (turnId: number | undefined) => Promise<CheckRun[] | undefined>;

const NOTHING_RUN: FixProof = { failures: [], passing: [], passed: [], failedBefore: [], brokenBefore: [] };

/**
 * The gate before a push, when the repository names checks. What is tested is the bot's commit itself,
 * exported from the workspace — exactly the tree that would be pushed, without what the fixer left that git
 * ignores. On it, each claimed finding's reproducer must now pass, and each configured check (the setup
 * counting as one) must pass unless it did not pass on the tip the fixer started from either. Every run is
 * recorded (phase `after`, and `before` for the tip).
 */
export async function proveFix(
  deps: PipelineDeps,
  turn: FixTurn,
  commit: FixCommit,
  before: ChecksBefore,
): Promise<FixProof> {
  const { ctx } = turn;
  if (!checksConfigured(ctx.config)) return NOTHING_RUN;
  const turnId = commit.turnId ?? undefined;
  const head = await prepareHead(deps, ctx, commit.sha, { turnId, phase: "after" });
  if ("unavailable" in head) return { ...NOTHING_RUN, notRun: head.unavailable };
  try {
    const [reproducers, checks] = await Promise.all([
      claimedReproducers(deps, turn, head, commit),
      runChecks(deps, ctx, head, { turnId, phase: "after" }),
    ]);
    const after = [...setupAsCheck(ctx.config, head.setup), ...checks];
    // A check that passes on the fix needs no comparison: the tip's checks run only when one fails.
    const baseline = after.some((c) => c.outcome !== "passed") ? await before(turnId) : undefined;
    const byReproducer = judgeReproducers(reproducers);
    const byCheck = compareChecks(after, baseline);
    turn.log.info(
      { sha: commit.sha, failures: byReproducer.failures.length + byCheck.failures.length },
      "fix checked before the push",
    );
    return { ...byCheck, ...byReproducer, failures: [...byReproducer.failures, ...byCheck.failures] };
  } finally {
    await head.dispose();
  }
}

/**
 * The tip's checks, run at most once per fix (every round starts from the same tip), and only when asked:
 * the first time a check fails on a fix.
 */
export function checksBefore(deps: PipelineDeps, turn: FixTurn, tip: BranchTip): ChecksBefore {
  let ran: Promise<CheckRun[] | undefined> | undefined;
  return (turnId) => (ran ??= runBefore(deps, turn, tip.startSha, turnId));
}

async function runBefore(
  deps: PipelineDeps,
  turn: FixTurn,
  sha: string,
  turnId: number | undefined,
): Promise<CheckRun[] | undefined> {
  const { ctx } = turn;
  const head = await prepareHead(deps, ctx, sha, { turnId, phase: "before" });
  if ("unavailable" in head) return undefined;
  try {
    const checks = await runChecks(deps, ctx, head, { turnId, phase: "before" });
    return [...setupAsCheck(ctx.config, head.setup), ...checks];
  } finally {
    await head.dispose();
  }
}

/**
 * The reproducer of each finding the commit claims to fix, run on the fix. A finding without one has none to
 * run, nor one whose reproducer passed on the PR's head at the review: passing after the fix would show nothing.
 */
async function claimedReproducers(
  deps: PipelineDeps,
  turn: FixTurn,
  head: PreparedHead,
  commit: FixCommit,
): Promise<ClaimedReproducer[]> {
  const turnId = commit.turnId ?? undefined;
  return Promise.all(
    commit.fixed.flatMap((finding) => {
      const reproducer = finding.reproducer;
      if (!reproducer || finding.reproduction === "not-reproduced") return [];
      const at = { turnId, phase: "after" as const, findingId: finding.id };
      return [
        runReproducer(deps, turn.ctx, head, reproducer, at).then((run) => ({
          finding,
          command: reproducer.command,
          run,
        })),
      ];
    }),
  );
}

/** The head's setup as one more check (none without a setup): a fix that breaks the install is blamed for it. */
function setupAsCheck(config: RepoConfig, setup: SetupOutcome): CheckRun[] {
  if (setup.status === "none") return [];
  const failed = setup.status === "failed";
  return [
    {
      name: "setup",
      command: config.checks.setup.map((c) => c.run).join(" && "),
      outcome: failed ? "failed" : "passed",
      exitCode: null,
      durationMs: 0,
      output: failed ? setup.detail : "",
      executionId: 0,
    },
  ];
}
