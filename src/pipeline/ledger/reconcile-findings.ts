import type { NewFinding } from "../../db/findings.js";
import type { Finding } from "../../db/schema.js";
import { parseFindingId } from "../../domain/finding-id.js";
import type { RaiseCandidate } from "./raise-or-note.js";

export interface ReportedFinding {
  id?: string;
  path: string;
  line?: number;
  end_line?: number;
  severity: "error" | "warning" | "info";
  action: "auto-fix" | "ask-user" | "no-op";
  title: string;
  body: string;
  suggestion?: string;
  /** The changed line the reviewer says breaks this code; its path already repository-relative. */
  broken_by?: { path: string; line: number };
}

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

  const resolvedNumbers = new Set<number>();
  for (const id of input.resolvedIds) {
    const number = parseFindingId(id);
    const known = number === undefined ? undefined : byNumber.get(number);
    if (known && (known.status === "open" || known.status === "fix-pushed")) resolvedNumbers.add(known.number);
  }

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
      if (known.status === "dismissed" || known.status === "withdrawn" || resolvedNumbers.has(known.number)) continue;
      if (known.status === "fixed" || known.status === "outdated")
        (raise(path, reported) ? out.reopened : out.notReopened).push(known.number);
      else if (known.status === "note" && raise(path, reported)) out.promoted.push(known.number);
      else out.restated.push(known.number);
      continue;
    }
    if (seen.has(fp)) continue;
    seen.add(fp);

    const lines = input.lineCount(path);
    if (lines === undefined) {
      out.dropped.push({
        title: reported.title,
        path,
        reason: "the file exists nowhere in the pull request (neither at its head nor at its base)",
      });
      continue;
    }
    if (reported.line !== undefined && reported.line > lines) {
      out.dropped.push({
        title: reported.title,
        path,
        reason: `line ${reported.line} is outside the file (${lines} lines)`,
      });
      continue;
    }
    let endLine =
      reported.end_line !== undefined && reported.line !== undefined && reported.end_line > reported.line
        ? reported.end_line
        : undefined;
    let suggestion = reported.suggestion;
    if (endLine !== undefined && endLine > lines) {
      endLine = lines;
      suggestion = undefined; // the replacement was written for lines that do not exist
    }
    if (reported.line === undefined) suggestion = undefined;
    out.added.push({
      fingerprint: fp,
      path,
      line: reported.line ?? null,
      endLine: endLine ?? null,
      severity: reported.severity,
      action: reported.action,
      title: reported.title,
      body: reported.broken_by
        ? `${reported.body}\n\nBroken by the change at \`${reported.broken_by.path}:${reported.broken_by.line}\`.`
        : reported.body,
      suggestion: suggestion ?? null,
      status: raise(path, reported, reported.line, endLine) ? "open" : "note",
      introducedTurnId: input.turnId ?? null,
    });
  }
  out.resolved = [...resolvedNumbers];
  return out;
}
