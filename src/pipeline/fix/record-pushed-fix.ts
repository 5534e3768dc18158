import { updateFinding } from "../../db/findings.js";
import { findingId } from "../../domain/finding-id.js";
import { pullRequestAnchor } from "../../domain/pull-request-anchor.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import { shortSha } from "../../text/labels.js";
import { fixerNotes } from "./fixer-notes.js";
import { renderProof } from "./render-fix-proof.js";
import type { BranchTip, ChosenFindings, FixCommit, FixTurn } from "./fix-turn.js";

/** The pushed fix in the ledger (its findings `fix-pushed`, unverified) and in the reply, with what the app ran on it. */
export async function recordPushedFix(
  deps: PipelineDeps,
  turn: FixTurn,
  findings: ChosenFindings,
  tip: BranchTip,
  commit: FixCommit,
): Promise<void> {
  const { run, log } = turn;
  const { sha, fixed } = commit;
  // The fixer's own change proves nothing about its claims: from here, only the verifier or later changes count.
  for (const f of fixed)
    await updateFinding(
      deps.db,
      run.id,
      f.number,
      { status: "fix-pushed", evidenceFromSha: sha, verification: null, claimedResolvedSha: null },
      { kind: "fix-pushed", actor: "fixer", turnId: commit.turnId, detail: sha, url: pullRequestAnchor.commit(sha) },
    );
  log.info({ sha, fixed: fixed.map((f) => f.number) }, "fix pushed");
  deps.metrics?.fixPushes.inc({ outcome: "accepted" });
  await turn.reply(
    `${turn.who}Pushed ${commitLink(tip.target.cloneUrl, sha)} fixing ${fixed.map((f) => findingId(f.number)).join(", ") || "nothing the fixer would name"}.${findings.notOpenNote}${renderProof(commit.proof, commit.regressionTests)}${fixerNotes(commit.declined, commit.summary)}\n\nThe push will be reviewed again${deps.verifier && fixed.length ? ", and an independent check rules on each fix first" : ""}.`,
  );
}

function commitLink(cloneUrl: string, sha: string): string {
  if (/^https?:\/\//.test(cloneUrl)) return `[${shortSha(sha)}](${cloneUrl.replace(/\.git$/, "")}/commit/${sha})`;
  return `\`${shortSha(sha)}\``;
}
