import { describe, expect, it } from "vitest";
import type { Finding, Turn } from "../../../src/db/schema.js";
import { renderCheckOutput } from "../../../src/pipeline/render/render-check-output.js";
import { renderSummary } from "../../../src/pipeline/render/render-summary.js";
import { reviewState } from "../../../src/pipeline/render/review-state.js";

const HEAD1 = "a".repeat(40);
const HEAD2 = "b".repeat(40);
const TURNS = [
  {
    id: 1,
    role: "reviewer",
    trigger: "opened",
    headSha: HEAD1,
    sessionMode: "started",
    status: "succeeded",
    tokensIn: 10,
    tokensOut: 5,
    costUsd: "0.01",
  },
  {
    id: 2,
    role: "reviewer",
    trigger: "synchronize",
    headSha: HEAD2,
    sessionMode: "resumed",
    status: "succeeded",
    tokensIn: 10,
    tokensOut: 5,
    costUsd: "0.01",
  },
] as unknown as Turn[];

function finding(number: number, over: Partial<Finding>): Finding {
  return {
    number,
    path: "src/a.ts",
    line: number,
    endLine: null,
    severity: "warning",
    title: `Finding ${number}`,
    body: "",
    status: "open",
    introducedTurnId: 1,
    claimedResolvedSha: null,
    verification: null,
    reproduction: null,
    demotedFrom: null,
    secondOpinion: null,
    ...over,
  } as Finding;
}

describe("reviewState", () => {
  it.each<[string, Finding[], "error" | "warning" | "info" | "never", string | undefined, string | undefined]>([
    ["an open error with fail_on error", [finding(1, { severity: "error" })], "error", undefined, "open findings"],
    ["an open warning below fail_on error, raised earlier", [finding(1, {})], "error", undefined, "converged"],
    [
      "an open warning below fail_on, raised by the last review",
      [finding(1, { introducedTurnId: 2 })],
      "error",
      undefined,
      "converging",
    ],
    [
      "a note raised by the last review does not count",
      [finding(1, { introducedTurnId: 2, status: "note", severity: "warning" })],
      "warning",
      undefined,
      "converged",
    ],
    [
      "fixed in the last push, nothing added",
      [finding(1, { severity: "error", status: "fixed" })],
      "error",
      undefined,
      "converged",
    ],
    [
      "a limit reached",
      [finding(1, { severity: "error" })],
      "error",
      "this PR has used its budget of 2 agent turns (limits.max_turns)",
      "stopped",
    ],
    ["fail_on never, nothing added", [finding(1, { severity: "error" })], "never", undefined, "converged"],
  ])("%s → %s", (_, findings, failOn, stopped, expected) => {
    expect(reviewState({ findings, turns: TURNS, lastReviewedSha: HEAD2, failOn, stopped })?.state).toBe(expected);
  });

  it("has no state before any review, unless stopped", () => {
    expect(reviewState({ findings: [], turns: [], lastReviewedSha: null, failOn: "error" })).toBeUndefined();
    expect(
      reviewState({ findings: [], turns: [], lastReviewedSha: null, failOn: "error", stopped: "out of budget" })?.state,
    ).toBe("stopped");
  });
});

describe("the state and the notes in the summary and the check run", () => {
  const findings = [
    finding(1, { severity: "error" }),
    finding(2, { status: "note", line: 25, title: "Unused helper" }),
  ];

  it("the summary starts with the state line, lists notes apart and counts them apart from open ones", () => {
    const summary = renderSummary({ findings, turns: TURNS, lastReviewedSha: HEAD2, failOn: "error" });
    const lines = summary.split("\n");
    expect(lines.slice(0, 4)).toEqual([
      "<!-- no-mistakes:summary -->",
      "## no-mistakes",
      "",
      "**State: open findings** — 1 finding open at or above `error` (`review.fail_on`).",
    ]);
    expect(summary).toContain("**1 open** · 0 resolved · 0 dismissed · 1 note · last reviewed bbbbbbb");
    expect(summary).toContain("- `src/a.ts:25` 🟡 warning — Unused helper (NM-2)");
    expect(summary).not.toMatch(/\| NM-2 \|/); // not in the ledger's table
  });

  it("without the config the summary has no state line", () => {
    expect(renderSummary({ findings, turns: TURNS, lastReviewedSha: HEAD2 })).not.toContain("**State:");
  });

  it("the check run's title names the state when it is not just open findings; notes are not counted", () => {
    const converged = reviewState({ findings: [findings[1]!], turns: TURNS, lastReviewedSha: HEAD2, failOn: "error" });
    const out = renderCheckOutput([findings[1]!], [], converged);
    expect(out.title).toBe("Converged · No open findings");
    expect(out.summary.split("\n")[0]).toBe(
      "**State: converged** — Nothing open at or above `error`, and the last review raised nothing new.",
    );
    expect(out.summary).toContain("1 note on code unchanged since an earlier review");
    const open = reviewState({ findings, turns: TURNS, lastReviewedSha: HEAD2, failOn: "error" });
    expect(renderCheckOutput(findings, [], open).title).toBe("1 open finding (1 error)");
  });
});
