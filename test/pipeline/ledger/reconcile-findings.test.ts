import { describe, expect, it } from "vitest";
import type { Finding } from "../../../src/db/schema.js";
import { reconcileFindings, type ReportedFinding } from "../../../src/pipeline/ledger/reconcile-findings.js";
import { fingerprint } from "../../../src/pipeline/ledger/fingerprint.js";
import { normalizePath } from "../../../src/pipeline/ledger/normalize-path.js";

const LINES: Record<string, number> = { "src/a.ts": 40, "src/b.ts": 10 };

function known(number: number, status: string, path = "src/a.ts", title = `Known ${number}`): Finding {
  return {
    id: number,
    runId: 1,
    number,
    fingerprint: fingerprint({ path, title, body: "" }),
    path,
    line: 5,
    endLine: null,
    severity: "warning",
    action: "ask-user",
    title,
    body: "b",
    suggestion: null,
    status,
    dismissReason: null,
    reviewId: 1,
    commentId: 10 + number,
    commentNodeId: null,
    threadId: null,
    introducedTurnId: 1,
    resolvedTurnId: null,
    claimedResolvedSha: null,
    evidenceFromSha: null,
    verification: null,
    ruling: null,
    rulingReason: null,
    rulingBy: null,
    rulingConfirmation: null,
    rulingConfirmedBy: null,
    rulingReplyId: null,
    reproducer: null,
    reproduction: null,
    demotedFrom: null,
    secondOpinion: null,
    secondOpinionBy: null,
    secondOpinionReason: null,
    outcome: null,
    outcomeAt: null,
    createdAt: new Date(),
    updatedAt: new Date(),
  };
}

function reported(over: Partial<ReportedFinding> = {}): ReportedFinding {
  return {
    path: "src/a.ts",
    line: 3,
    severity: "error",
    action: "auto-fix",
    title: "New problem",
    body: "why",
    ...over,
  };
}

function run(existing: Finding[], findings: ReportedFinding[], resolvedIds: string[] = []) {
  return reconcileFindings({
    existing,
    reported: findings,
    resolvedIds,
    normalizePath: (p) => normalizePath(p),
    lineCount: (p) => LINES[p],
    fingerprint,
    turnId: 7,
  });
}

describe("reconcileFindings", () => {
  it("adds a new finding with its fingerprint and the turn that introduced it", () => {
    const out = run([], [reported()]);
    expect(out.added).toHaveLength(1);
    expect(out.added[0]).toMatchObject({
      path: "src/a.ts",
      line: 3,
      status: "open",
      introducedTurnId: 7,
      fingerprint: fingerprint({ path: "src/a.ts", title: "New problem", body: "" }),
    });
  });

  it.each([
    ["restated by id", [known(1, "open")], reported({ id: "NM-1", title: "Reworded entirely" }), "restated", [1]],
    [
      "restated by fingerprint at another line",
      [known(1, "open")],
      reported({ title: "Known 1", line: 30 }),
      "restated",
      [1],
    ],
    ["a fixed finding raised again is reopened", [known(1, "fixed")], reported({ title: "Known 1" }), "reopened", [1]],
    ["a dismissed finding is never raised again", [known(1, "dismissed")], reported({ id: "NM-1" }), "restated", []],
  ] as const)("%s", (_name, existing, finding, bucket, expected) => {
    const out = run([...existing], [finding]);
    expect(out.added).toEqual([]);
    expect(out[bucket]).toEqual(expected);
  });

  it("reports a duplicate within one answer once", () => {
    const out = run([], [reported(), reported({ line: 9 })]);
    expect(out.added).toHaveLength(1);
  });

  it("resolves only open or fix-pushed findings it knows", () => {
    const out = run(
      [known(1, "open"), known(2, "fix-pushed"), known(3, "dismissed")],
      [],
      ["NM-1", "nm-2", "NM-3", "NM-9", "bogus"],
    );
    expect(out.resolved.sort()).toEqual([1, 2]);
  });

  it("does not restate a finding it also marks resolved", () => {
    const out = run([known(1, "open")], [reported({ id: "NM-1" })], ["NM-1"]);
    expect(out.restated).toEqual([]);
    expect(out.resolved).toEqual([1]);
  });

  it.each([
    [reported({ path: "../../etc/passwd" }), "the path is outside the repository"],
    [reported({ path: "/etc/passwd" }), "the path is outside the repository"],
    [
      reported({ path: "src/missing.ts" }),
      "the file exists nowhere in the pull request (neither at its head nor at its base)",
    ],
    [reported({ path: "src/b.ts", line: 11 }), "line 11 is outside the file (10 lines)"],
  ])("drops %j with a reason", (finding, reason) => {
    const out = run([], [finding]);
    expect(out.added).toEqual([]);
    expect(out.dropped).toEqual([{ title: finding.title, path: expect.any(String), reason }]);
  });

  it("clamps an end line past the file and drops the suggestion that was written for it", () => {
    const out = run([], [reported({ path: "src/b.ts", line: 8, end_line: 14, suggestion: "x" })]);
    expect(out.added[0]).toMatchObject({ line: 8, endLine: 10, suggestion: null });
  });

  it("keeps a suggestion that fits, and drops suggestions on findings without a line", () => {
    expect(run([], [reported({ line: 3, end_line: 4, suggestion: "y" })]).added[0]).toMatchObject({
      endLine: 4,
      suggestion: "y",
    });
    expect(run([], [reported({ line: undefined, suggestion: "z" })]).added[0]).toMatchObject({
      line: null,
      suggestion: null,
    });
  });
});
