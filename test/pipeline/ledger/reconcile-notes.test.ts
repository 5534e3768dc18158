import { describe, expect, it } from "vitest";
import type { Finding } from "../../../src/db/schema.js";
import { reconcileFindings, type ReportedFinding } from "../../../src/pipeline/ledger/reconcile-findings.js";
import type { ChangedLines } from "../../../src/pipeline/workspace/changed-lines.js";
import { fingerprint } from "../../../src/pipeline/ledger/fingerprint.js";
import { normalizePath } from "../../../src/pipeline/ledger/normalize-path.js";
import { raiseOrNote } from "../../../src/pipeline/ledger/raise-or-note.js";

/** src/a.ts changed at lines 10-11 since the last review; nothing else did. */
const CHANGED: ChangedLines = new Map([["src/a.ts", new Set([10, 11])]]);

function known(number: number, status: string, over: Partial<Finding> = {}): Finding {
  const title = `Known ${number}`;
  return {
    id: number,
    runId: 1,
    number,
    fingerprint: fingerprint({ path: "src/a.ts", title, body: "" }),
    path: "src/a.ts",
    line: 3,
    endLine: null,
    severity: "warning",
    action: "ask-user",
    title,
    body: "",
    suggestion: null,
    status,
    reviewId: status === "note" ? null : 1,
    introducedTurnId: 1,
    ...over,
  } as Finding;
}

function reported(over: Partial<ReportedFinding> = {}): ReportedFinding {
  return {
    path: "src/a.ts",
    line: 3,
    severity: "warning",
    action: "ask-user",
    title: "New problem",
    body: "why",
    ...over,
  };
}

/** `changed` = "whole": a review of the whole PR (nothing to compare with). */
function reconcile(existing: Finding[], findings: ReportedFinding[], changed: ChangedLines | "whole" = CHANGED) {
  return reconcileFindings({
    existing,
    reported: findings,
    resolvedIds: [],
    normalizePath: (p) => normalizePath(p),
    lineCount: () => 40,
    fingerprint,
    turnId: 7,
    raise: (f) => raiseOrNote(f, changed === "whole" ? undefined : changed).raise,
  });
}

describe("reconcileFindings on a later review: raise or keep as a note", () => {
  it("a new warning on an unchanged line is added as a note; on a changed line it is open", () => {
    const rec = reconcile([], [reported({ title: "Unchanged" }), reported({ line: 10, title: "Changed" })]);
    expect(rec.added.map((f) => [f.title, f.status])).toEqual([
      ["Unchanged", "note"],
      ["Changed", "open"],
    ]);
  });

  it("an error on an unchanged line is always open", () => {
    expect(reconcile([], [reported({ severity: "error" })]).added.map((f) => f.status)).toEqual(["open"]);
  });

  it("broken_by: on a changed line → open, and the body names it; on an unchanged line → a note", () => {
    const rec = reconcile(
      [],
      [
        reported({ title: "Breaks", broken_by: { path: "src/a.ts", line: 11 } }),
        reported({ title: "Claims", broken_by: { path: "src/a.ts", line: 30 } }),
      ],
    );
    expect(rec.added.map((f) => [f.title, f.status])).toEqual([
      ["Breaks", "open"],
      ["Claims", "note"],
    ]);
    expect(rec.added[0]!.body).toBe("why\n\nBroken by the change at `src/a.ts:11`.");
  });

  it("a restated open finding on unchanged code stays restated (one thread, still open), by id or by fingerprint", () => {
    const open = known(1, "open");
    const byId = reconcile([open], [reported({ id: "NM-1", title: "Reworded entirely" })]);
    expect(byId).toMatchObject({ added: [], restated: [1], promoted: [] });
    const byFingerprint = reconcile([open], [reported({ title: "Known 1", body: "" })]);
    expect(byFingerprint).toMatchObject({ added: [], restated: [1] });
  });

  it("a note reported again stays a note on unchanged code, and is promoted when a change now breaks it", () => {
    const note = known(2, "note");
    expect(reconcile([note], [reported({ id: "NM-2" })])).toMatchObject({ added: [], restated: [2], promoted: [] });
    expect(reconcile([note], [reported({ id: "NM-2", broken_by: { path: "src/a.ts", line: 10 } })])).toMatchObject({
      added: [],
      restated: [],
      promoted: [2],
    });
  });

  it("a fixed finding reported again on unchanged code is not reopened; on a changed line it is", () => {
    const fixed = known(3, "fixed");
    expect(reconcile([fixed], [reported({ id: "NM-3" })])).toMatchObject({ reopened: [], notReopened: [3] });
    expect(reconcile([fixed], [reported({ id: "NM-3", line: 11 })])).toMatchObject({ reopened: [3], notReopened: [] });
  });

  it("a withdrawn finding is never raised again", () => {
    expect(reconcile([known(4, "withdrawn")], [reported({ id: "NM-4", line: 10 })])).toMatchObject({
      added: [],
      restated: [],
      reopened: [],
      promoted: [],
    });
  });

  it("a review of the whole PR raises everything", () => {
    expect(reconcile([], [reported()], "whole").added.map((f) => f.status)).toEqual(["open"]);
  });
});
