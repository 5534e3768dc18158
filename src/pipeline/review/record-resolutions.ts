import type { Finding } from "../../db/schema.js";
import { updateFinding } from "../../db/findings.js";
import { listTurns } from "../../db/turns.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import { hasResolutionEvidence } from "../ledger/resolution-evidence.js";
import type { ReviewHead, ReviewTurn } from "./review-turn.js";

/**
 * The findings (by number) the reviewer's answer called resolved, recorded: fixed when there is evidence,
 * else a claim at the reviewed head. The numbers of those now fixed.
 */
export async function recordResolutions(
  deps: PipelineDeps,
  run: ReviewTurn["run"],
  head: ReviewHead,
  before: Finding[],
  resolved: number[],
  turnId: number | undefined,
): Promise<number[]> {
  const { workspace, ws } = head;
  // A finding leaves `open` only with evidence: its lines changed since it was raised. Otherwise the
  // reviewer's word is recorded as a claim and the finding keeps counting.
  const raisedAt = new Map((await listTurns(deps.db, run.id)).map((t) => [t.id, t.headSha]));
  const verified: number[] = [];
  for (const n of resolved) {
    const finding = before.find((f) => f.number === n)!;
    // after a fixer's commit only later changes count: its own change is judged by the verifier
    const from = finding.evidenceFromSha
      ? [finding.evidenceFromSha]
      : [finding.introducedTurnId === null ? undefined : raisedAt.get(finding.introducedTurnId), run.lastReviewedSha];
    if (await hasResolutionEvidence(workspace, finding, from, ws.headSha)) {
      verified.push(n);
      await updateFinding(
        deps.db,
        run.id,
        n,
        { status: "fixed", resolvedTurnId: turnId ?? null, claimedResolvedSha: null },
        { actor: "reviewer", turnId: turnId ?? null },
      );
    } else {
      await updateFinding(deps.db, run.id, n, { claimedResolvedSha: ws.headSha });
    }
  }
  return verified;
}
