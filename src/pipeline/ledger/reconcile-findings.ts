// The ledger room: the rules of the findings' ledger — how a review's findings are reconciled with the
// known ones (this file, admit-new-finding), raised or kept as notes (raise-or-note), located after
// renames (follow-rename, map-renamed-line, normalize-path, fingerprint), resolved only with evidence
// (resolution-evidence, touches-lines), ruled on (ruling-state, standing) and counted for the check
// (blocking-findings). It imports workspace, job and sessions.

import type { NewFinding } from "../../db/findings.js";
import type { Finding } from "../../db/schema.js";
import { parseFindingId } from "../../domain/finding-id.js";
import { admitNewFinding } from "./admit-new-finding.js";
import type { RaiseCandidate } from "./raise-or-note.js";
import type { ReportedFinding } from "./reported-finding.js";

export type { ReportedFinding } from "./reported-finding.js";

export interface Reconciliation {
  /** Findings never seen in this run: to insert and post. */
  added: NewFinding[];
  /** Known findings the reviewer restated: not posted again. */
  restated: number[];
  /** Known findings that were fixed and are reported again: reopened, not posted again. */
  reopened: number[];
  /** Known notes reported again where a later review raises them now (see `raise`): to open and post. */
  promoted: number[];
  /** Fixed findings reported again on code no change since the last review touched: left fixed. */
  notReopened: number[];
  /** Open findings the reviewer says are resolved. */
  resolved: number[];
  /** Reported findings that cannot be placed in the repository, with why. */
  dropped: { title: string; path: string; reason: string }[];
}

export interface ReconcileInput {
  existing: Finding[];
  reported: ReportedFinding[];
  resolvedIds: string[];
  /** Repo-relative path, or undefined when the path leaves the repository. */
  normalizePath: (path: string) => string | undefined;
  /** Lines in the file at the reviewed head; undefined when the file does not exist there. */
  lineCount: (path: string) => number | undefined;
  fingerprint: (f: { path: string; title: string; body: string }) => string;
  turnId?: number;
  /**
   * Whether a finding at this place is raised (open, posted) or kept as a note (status `note`: shown in
   * the summary, never posted, never counted). Absent: everything is raised.
   */
  raise?: (f: RaiseCandidate) => boolean;
}

/**
 * Merges a reviewer's answer into the run's ledger: the bot owns ids, fingerprints and de-duplication.
 * A restated finding (by id or fingerprint) stays what it is wherever it sits: only findings new to the
 * ledger, notes, and fixed findings reported again are judged by `raise`.
 */
export function reconcileFindings(input: ReconcileInput): Reconciliation {
  const byNumber = new Map(input.existing.map((f) => [f.number, f]));
  const byFingerprint = new Map(input.existing.map((f) => [f.fingerprint, f]));
  const out: Reconciliation = {
    added: [],
    restated: [],
    reopened: [],
    promoted: [],
    notReopened: [],
    resolved: [],
    dropped: [],
  };
  const raise = (path: string, reported: ReportedFinding, line = reported.line, endLine = reported.end_line) =>
    input.raise?.({ path, line, endLine, severity: reported.severity, brokenBy: reported.broken_by }) ?? true;
  const seen = new Set<string>();
  const resolvedNumbers = resolvedNumbersOf(input.resolvedIds, byNumber);

  for (const reported of input.reported) {
    const path = input.normalizePath(reported.path);
    if (path === undefined) {
      out.dropped.push({ title: reported.title, path: reported.path, reason: "the path is outside the repository" });
      continue;
    }
    const fp = input.fingerprint({ path, title: reported.title, body: reported.body });
    const number = reported.id ? parseFindingId(reported.id) : undefined;
    const known = (number !== undefined ? byNumber.get(number) : undefined) ?? byFingerprint.get(fp);
    if (known) {
      if (seen.has(`#${known.number}`)) continue;
      seen.add(`#${known.number}`);
      const list = restatementOf(known, resolvedNumbers, () => raise(path, reported));
      if (list) out[list].push(known.number);
      continue;
    }
    if (seen.has(fp)) continue;
    seen.add(fp);

    const admitted = admitNewFinding({
      reported,
      path,
      fingerprint: fp,
      lines: input.lineCount(path),
      raise: (line, endLine) => raise(path, reported, line, endLine),
      turnId: input.turnId,
    });
    if ("added" in admitted) out.added.push(admitted.added);
    else out.dropped.push(admitted.dropped);
  }
  out.resolved = [...resolvedNumbers];
  return out;
}

/** The findings the reviewer says are resolved that are open (or have a fix pushed): only those resolve. */
function resolvedNumbersOf(resolvedIds: string[], byNumber: ReadonlyMap<number, Finding>): Set<number> {
  const resolvedNumbers = new Set<number>();
  for (const id of resolvedIds) {
    const number = parseFindingId(id);
    const known = number === undefined ? undefined : byNumber.get(number);
    if (known && (known.status === "open" || known.status === "fix-pushed")) resolvedNumbers.add(known.number);
  }
  return resolvedNumbers;
}

/**
 * Where a known finding reported again goes; undefined when it stays as it is (dismissed, withdrawn, or
 * resolved in this same answer). `raised` is asked only of fixed and outdated findings and of notes.
 */
function restatementOf(
  known: Finding,
  resolvedNumbers: ReadonlySet<number>,
  raised: () => boolean,
): "restated" | "reopened" | "promoted" | "notReopened" | undefined {
  if (known.status === "dismissed" || known.status === "withdrawn" || resolvedNumbers.has(known.number))
    return undefined;
  if (known.status === "fixed" || known.status === "outdated") return raised() ? "reopened" : "notReopened";
  if (known.status === "note" && raised()) return "promoted";
  return "restated";
}
