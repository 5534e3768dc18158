import { touchesChanged, type ChangedLines } from "../workspace/changed-lines.js";

export interface RaiseCandidate {
  path: string;
  line?: number | null;
  endLine?: number | null;
  severity: string;
  /** The changed line the reviewer says breaks this code (new version of the file). */
  brokenBy?: { path: string; line: number };
}

export type RaiseDecision =
  | { raise: true; because: "whole-review" | "error" | "changed-line" | "broken-by" }
  | { raise: false; because: "unchanged-code" | "broken-by-unchanged-line" };

/**
 * Whether a later review raises a new finding, or keeps it as a note. `changed` is what the PR's own
 * changes touched since the last reviewed head; undefined for a review of the whole PR (the first one,
 * or one asked for in full), which raises everything.
 *
 * A later review raises a finding on a changed line, or on code a change breaks when `brokenBy` names a
 * changed line; an error is always raised. Anything else about unchanged code is a note: shown, never
 * posted inline, never counted — so a PR converges instead of collecting nits round after round.
 */
export function raiseOrNote(finding: RaiseCandidate, changed: ChangedLines | undefined): RaiseDecision {
  if (changed === undefined) return { raise: true, because: "whole-review" };
  if (finding.severity === "error") return { raise: true, because: "error" };
  if (touchesChanged(changed, finding.path, finding.line, finding.endLine))
    return { raise: true, because: "changed-line" };
  if (finding.brokenBy) {
    return touchesChanged(changed, finding.brokenBy.path, finding.brokenBy.line)
      ? { raise: true, because: "broken-by" }
      : { raise: false, because: "broken-by-unchanged-line" };
  }
  return { raise: false, because: "unchanged-code" };
}
