import { listFindings } from "../../db/findings.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import type { BranchTip, FixCommit, FixTurn } from "./fix-turn.js";
import { verifyFix } from "./verify-fix.js";

/** Someone else checks the fixer's claims (a fresh verifier session), when there is a verifier and a claim. */
export async function verifyClaims(
  deps: PipelineDeps,
  turn: FixTurn,
  tip: BranchTip,
  commit: FixCommit,
): Promise<void> {
  const { run } = turn;
  const { fixed } = commit;
  if (!deps.verifier || fixed.length === 0) return;
  const claimed = (await listFindings(deps.db, run.id)).filter((f) => fixed.some((x) => x.number === f.number));
  await verifyFix({
    db: deps.db,
    verifier: deps.verifier,
    github: turn.ctx.github,
    ref: turn.ctx.ref,
    run,
    workspace: tip.workspace,
    claimed,
    from: tip.startSha,
    sha: commit.sha,
    passing: commit.proof?.passing.map((p) => ({ number: p.finding.number, command: p.command })) ?? [],
    timeoutMs: deps.agentTimeoutMs,
    agentChoice: turn.ctx.config.agents?.verifier,
    signal: turn.signal,
    log: turn.log,
  });
}
