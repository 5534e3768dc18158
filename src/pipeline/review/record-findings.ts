import { insertFindings, listFindings, updateFinding } from "../../db/findings.js";
import type { Finding } from "../../db/schema.js";
import { listTurns } from "../../db/turns.js";
import { reconcileFindings, type ReportedFinding } from "../ledger/reconcile-findings.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import type { ReviewerVerdict } from "./ask-reviewer.js";
import { fingerprint } from "../ledger/fingerprint.js";
import { followRename } from "../ledger/follow-rename.js";
import { normalizePath } from "../ledger/normalize-path.js";
import { raiseOrNote } from "../ledger/raise-or-note.js";
import { hasResolutionEvidence } from "../ledger/resolution-evidence.js";
import type { ReviewHead, ReviewInput, ReviewTurn } from "./review-turn.js";

/** The ledger after the reviewer's answer, and what changed in it. */
export interface RecordedFindings {
  ledger: Finding[];
  /** Findings the answer resolved with evidence (their lines changed): now fixed. */
  resolved: Finding[];
  /** Findings the answer called resolved without evidence: still open, claimed. */
  claimed: Finding[];
  /** Findings the answer named on paths that exist nowhere in the PR (not recorded). */
  dropped: ReturnType<typeof reconcileFindings>["dropped"];
  /** New findings kept as notes (on code unchanged since the last review). */
  keptAsNotes: number;
  /** Renamed paths in the PR (old → new). */
  renames: ReadonlyMap<string, string>;
}

/**
 * The ledger: stable ids, fingerprints, no duplicates; paths and lines checked against the head. A
 * finding on a renamed file's old path moves to the new one; one on a file the PR deleted is still
 * tracked (its lines checked against the base). Only a path that exists nowhere in the PR is dropped. A
 * finding leaves `open` only with evidence.
 */
export async function recordFindings(
  deps: PipelineDeps,
  turn: ReviewTurn,
  head: ReviewHead,
  input: ReviewInput,
  verdict: ReviewerVerdict,
): Promise<RecordedFindings> {
  const { run, log } = turn;
  const { workspace, ws } = head;
  const { answer, turnId, before } = verdict;
  const renames = await workspace.renames(ws.mergeBase, ws.headSha);
  const reported = await Promise.all(
    answer.findings.map(async (f) =>
      brokenByInRepo(await followRename(workspace, ws, renames, f, normalizePath(f.path)), renames),
    ),
  );
  const lineCounts = new Map<string, number | undefined>();
  for (const [i, f] of reported.entries()) {
    const path = normalizePath(f.path);
    if (path === undefined) continue;
    if (!lineCounts.has(path))
      lineCounts.set(
        path,
        (await workspace.lineCount(ws.headSha, path)) ?? (await workspace.lineCount(ws.mergeBase, path)),
      );
    // a submodule has no lines: a finding on it is about the bump as a whole
    if (
      lineCounts.get(path) === undefined &&
      ((await workspace.isSubmodule(ws.headSha, path)) || (await workspace.isSubmodule(ws.mergeBase, path)))
    ) {
      lineCounts.set(path, 0);
      reported[i] = { ...f, line: undefined, end_line: undefined, suggestion: undefined };
    }
  }
  const rec = reconcileFindings({
    existing: before,
    reported,
    resolvedIds: answer.resolved,
    normalizePath: (p) => normalizePath(p),
    lineCount: (p) => lineCounts.get(p),
    fingerprint,
    turnId,
    raise: (f) => raiseOrNote(f, input.changed).raise,
  });
  await insertFindings(deps.db, run.id, rec.added);
  // A note reported again where a later review raises it now (its code changed, a change breaks it, or an error) is opened and posted.
  for (const n of rec.promoted)
    await updateFinding(deps.db, run.id, n, { status: "open", introducedTurnId: turnId ?? null });
  // A finding leaves `open` only with evidence: its lines changed since it was raised. Otherwise the
  // reviewer's word is recorded as a claim and the finding keeps counting.
  const raisedAt = new Map((await listTurns(deps.db, run.id)).map((t) => [t.id, t.headSha]));
  const verified: number[] = [];
  for (const n of rec.resolved) {
    const finding = before.find((f) => f.number === n)!;
    // after a fixer's commit only later changes count: its own change is judged by the verifier
    const from = finding.evidenceFromSha
      ? [finding.evidenceFromSha]
      : [finding.introducedTurnId === null ? undefined : raisedAt.get(finding.introducedTurnId), run.lastReviewedSha];
    if (await hasResolutionEvidence(workspace, finding, from, ws.headSha)) {
      verified.push(n);
      await updateFinding(deps.db, run.id, n, {
        status: "fixed",
        resolvedTurnId: turnId ?? null,
        claimedResolvedSha: null,
      });
    } else {
      await updateFinding(deps.db, run.id, n, { claimedResolvedSha: ws.headSha });
    }
  }
  for (const n of rec.reopened)
    await updateFinding(deps.db, run.id, n, { status: "open", resolvedTurnId: null, claimedResolvedSha: null });
  const ledger = await listFindings(deps.db, run.id);
  const keptAsNotes = rec.added.filter((f) => f.status === "note").length;
  log.info(
    {
      added: rec.added.length - keptAsNotes,
      keptAsNotes,
      promoted: rec.promoted.length,
      notReopened: rec.notReopened.length,
      restated: rec.restated.length,
      resolved: verified.length,
      claimedUnverified: rec.resolved.length - verified.length,
      dropped: rec.dropped.length,
      since: input.since,
    },
    "findings reconciled",
  );
  return {
    ledger,
    resolved: ledger.filter((f) => verified.includes(f.number)),
    claimed: ledger.filter((f) => rec.resolved.includes(f.number) && !verified.includes(f.number)),
    dropped: rec.dropped,
    keptAsNotes,
    renames,
  };
}

/** `broken_by` as the bot keys paths: repository-relative, on a renamed file's new path; dropped when it names no file in the repository. */
function brokenByInRepo(finding: ReportedFinding, renames: ReadonlyMap<string, string>): ReportedFinding {
  if (!finding.broken_by) return finding;
  const path = normalizePath(finding.broken_by.path);
  if (path === undefined) return { ...finding, broken_by: undefined };
  return { ...finding, broken_by: { path: renames.get(path) ?? path, line: finding.broken_by.line } };
}
