import { describe, expect, it } from "vitest";
import { parseRepoConfig } from "../../src/config/repo/repo-config.js";
import type { Finding, Turn } from "../../src/db/schema.js";
import { budgetRefusal, spendOf } from "../../src/pipeline/sessions/check-budget.js";
import type { FailOn } from "../../src/pipeline/ledger/blocking-findings.js";
import { checkConclusion, renderCheckOutput } from "../../src/pipeline/render/render-check-output.js";
import { reviewState } from "../../src/pipeline/render/review-state.js";
import {
  finding,
  HEAD_SHA,
  HOSTILE_TITLE,
  LIVE_MENTION,
  PREVIOUS_SHA,
  roundingFinding,
  snap,
  sqlFinding,
  turn,
  visible,
} from "./fixtures.js";

/**
 * The `no-mistakes` check run after a review, as run-review.ts completes it: conclusion, title and
 * summary (the output's `text` is not set). The snapshot file shows the conclusion and title as a
 * header, then the summary exactly as sent.
 */
function completedCheck(findings: Finding[], turns: Turn[], failOn: FailOn, notes: string[] = [], stopped?: string) {
  const state = reviewState({ findings, turns, lastReviewedSha: HEAD_SHA, failOn, stopped });
  return { conclusion: checkConclusion(findings, failOn), ...renderCheckOutput(findings, notes, state) };
}

function asFile(check: { conclusion: string; title: string; summary: string }): string {
  return `conclusion: ${check.conclusion}\ntitle: ${check.title}\n\n---\n\n${check.summary}\n`;
}

const TURNS = [
  turn({ id: 1, role: "reviewer", headSha: PREVIOUS_SHA }),
  turn({ id: 2, role: "reviewer", trigger: "synchronize", headSha: HEAD_SHA, sessionMode: "resumed" }),
];

describe("check run output", () => {
  it("failing: open errors and warnings, a ruling awaiting a maintainer, a partial-review note, notes kept", async () => {
    const check = completedCheck(
      [
        sqlFinding(),
        roundingFinding({
          status: "fix-pushed",
        }),
        finding({
          number: 3,
          severity: "error",
          title: "Retry loop never gives up",
          line: 90,
          ruling: "deferred",
          rulingConfirmation: "awaiting",
        }),
        finding({ number: 4, severity: "info", title: "Pipe | in a title", path: "src/a|b.ts", line: 1 }),
        finding({ number: 5, severity: "error", title: "Already fixed", status: "fixed" }),
        finding({ number: 6, severity: "info", title: "Magic number", status: "note" }),
        finding({ number: 7, severity: "warning", title: HOSTILE_TITLE, status: "open", path: "src/x.ts", line: 5 }),
      ],
      TURNS,
      "error",
      [
        "Partial review: the diff is larger than review.max_diff_bytes (400000 bytes); 2 files were not reviewed: `fixtures/big.json`, `@alice/notes.md`.",
      ],
    );

    await expect(visible(asFile(check))).toMatchFileSnapshot(snap("check-failing"));
    expect(check.conclusion).toBe("failure");
    expect(check.title).toBe("5 open findings (2 error, 2 warning, 1 info)");
    expect(
      check.summary.startsWith("**State: open findings** — 2 findings open at or above `error` (`review.fail_on`)."),
    ).toBe(true);
    expect(check.summary).toContain("| NM-4 | 🔵 info | `src/a\\|b.ts:1` | Pipe \\| in a title |");
    expect(check.summary).not.toMatch(LIVE_MENTION);
    expect(check.summary).not.toContain("NM-5");
  });

  it("passing, converged: nothing open", async () => {
    const check = completedCheck(
      [
        finding({ number: 1, severity: "error", status: "fixed" }),
        finding({ number: 2, severity: "warning", status: "dismissed" }),
      ],
      TURNS,
      "error",
    );

    await expect(visible(asFile(check))).toMatchFileSnapshot(snap("check-passing-converged"));
    expect(check).toEqual({
      conclusion: "success",
      title: "Converged · No open findings",
      summary:
        "**State: converged** — Nothing open at or above `error`, and the last review raised nothing new.\n\nNothing open. 🎉",
    });
  });

  it("passing, converging: a warning below fail_on raised by the last review", async () => {
    const check = completedCheck(
      [finding({ number: 3, severity: "warning", title: "Discount rounds with floats", introducedTurnId: 2 })],
      TURNS,
      "error",
    );

    await expect(visible(asFile(check))).toMatchFileSnapshot(snap("check-passing-converging"));
    expect(check.conclusion).toBe("success");
    expect(check.title).toBe("Converging · 1 open finding (1 warning)");
  });

  it("passing with fail_on never, although an error is open", async () => {
    const check = completedCheck(
      [finding({ number: 1, severity: "error", title: "SQL built by string concatenation", introducedTurnId: 2 })],
      TURNS,
      "never",
    );

    await expect(visible(asFile(check))).toMatchFileSnapshot(snap("check-passing-fail-on-never"));
    expect(check.conclusion).toBe("success");
    expect(check.summary).toContain("Nothing fails the check (`review.fail_on: never`)");
  });

  it("failing and stopped: the cost budget is spent", async () => {
    const stopped = budgetRefusal(spendOf(TURNS), parseRepoConfig("limits:\n  max_cost_usd: 0.5\n").config, "reviewer");
    const check = completedCheck(
      [finding({ number: 1, severity: "error", title: "SQL built by string concatenation" })],
      TURNS,
      "error",
      [],
      stopped,
    );

    await expect(visible(asFile(check))).toMatchFileSnapshot(snap("check-failing-stopped"));
    expect(check.conclusion).toBe("failure");
    expect(stopped).toBe("this PR has spent $0.84 of its $0.50 budget (limits.max_cost_usd)");
    expect(check.title).toBe("Stopped · 1 open finding (1 error)");
  });
});
