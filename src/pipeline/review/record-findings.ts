import { recordFindingEvents } from "../../db/finding-events.js";
import { insertFindings, listFindings, updateFinding } from "../../db/findings.js";
import type { Finding } from "../../db/schema.js";
import { reconcileFindings } from "../ledger/reconcile-findings.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import type { ReviewerVerdict } from "./ask-reviewer.js";
import { fingerprint } from "../ledger/fingerprint.js";
import { normalizePath } from "../ledger/normalize-path.js";
import { raiseOrNote } from "../ledger/raise-or-note.js";
import { locateReportedFindings } from "./locate-reported-findings.js";
import { recordResolutions } from "./record-resolutions.js";
import { reproducersAsked } from "./reproducers-asked.js";
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
  const { answer, turnId, before } = verdict;
  // a reproducer is kept only where the app will run it: one given unasked would hold a fix to an unrun test
  const asked = reproducersAsked(turn.ctx.config, deps.checks !== undefined) !== undefined;
  const findings = asked ? answer.findings : answer.findings.map(({ reproducer: _, ...f }) => f);
  const { renames, reported, lineCounts } = await locateReportedFindings(head, findings);
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
  const by = { actor: "reviewer", turnId: turnId ?? null };
  await recordReportedAgain(deps, run.id, rec, by);
  const verified = await recordResolutions(deps, run, head, before, rec.resolved, turnId);
  for (const n of rec.reopened)
    await updateFinding(deps.db, run.id, n, { status: "open", resolvedTurnId: null, claimedResolvedSha: null }, by);
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

/**
 * Known findings the answer reported again: a restatement is an event; a note a later review raises now
 * (its code changed, a change breaks it, or an error) is opened and posted, raised at this turn.
 */
async function recordReportedAgain(
  deps: PipelineDeps,
  runId: number,
  rec: ReturnType<typeof reconcileFindings>,
  by: { actor: string; turnId: number | null },
): Promise<void> {
  await recordFindingEvents(
    deps.db,
    runId,
    rec.restated.map((n) => ({ findingNumber: n, kind: "restated", ...by })),
  );
  for (const n of rec.promoted)
    await updateFinding(deps.db, runId, n, { status: "open", introducedTurnId: by.turnId }, { kind: "raised", ...by });
}
