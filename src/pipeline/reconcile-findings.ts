import type { NewFinding } from "../db/findings.js";
import type { Finding } from "../db/schema.js";
import { parseFindingId } from "./finding-id.js";

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
}

export interface Reconciliation {
  /** Findings never seen in this run: to insert and post. */
  added: NewFinding[];
  /** Known findings the reviewer restated: not posted again. */
  restated: number[];
  /** Known findings that were fixed and are reported again: reopened, not posted again. */
  reopened: number[];
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
}

/** Merges a reviewer's answer into the run's ledger: the bot owns ids, fingerprints and de-duplication. */
export function reconcileFindings(input: ReconcileInput): Reconciliation {
  const byNumber = new Map(input.existing.map((f) => [f.number, f]));
  const byFingerprint = new Map(input.existing.map((f) => [f.fingerprint, f]));
  const out: Reconciliation = { added: [], restated: [], reopened: [], resolved: [], dropped: [] };
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
      if (known.status === "dismissed" || resolvedNumbers.has(known.number)) continue;
      if (known.status === "fixed" || known.status === "outdated") out.reopened.push(known.number);
      else out.restated.push(known.number);
      continue;
    }
    if (seen.has(fp)) continue;
    seen.add(fp);

    const lines = input.lineCount(path);
    if (lines === undefined) {
      out.dropped.push({ title: reported.title, path, reason: "the file exists nowhere in the pull request (neither at its head nor at its base)" });
      continue;
    }
    if (reported.line !== undefined && reported.line > lines) {
      out.dropped.push({ title: reported.title, path, reason: `line ${reported.line} is outside the file (${lines} lines)` });
      continue;
    }
    let endLine = reported.end_line !== undefined && reported.line !== undefined && reported.end_line > reported.line ? reported.end_line : undefined;
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
      body: reported.body,
      suggestion: suggestion ?? null,
      status: "open",
      introducedTurnId: input.turnId ?? null,
    });
  }
  out.resolved = [...resolvedNumbers];
  return out;
}
