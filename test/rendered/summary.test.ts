import { describe, expect, it } from "vitest";
import { parseRepoConfig } from "../../src/config/repo/repo-config.js";
import { budgetRefusal, spendOf } from "../../src/pipeline/sessions/check-budget.js";
import { SUMMARY_MARKER } from "../../src/text/labels.js";
import { renderSummary } from "../../src/pipeline/render/render-summary.js";
import {
  finding,
  FIX_SHA,
  HEAD_SHA,
  HOSTILE_TITLE,
  LIVE_MENTION,
  PREVIOUS_SHA,
  snap,
  turn,
  visible,
  roundingFinding,
  sqlFinding,
} from "./fixtures.js";

/** The PR's one summary comment, edited in place after every review, fix and ruling. */

/** A PR's turns: a first review, a fix, a review of the fix (resumed, then one that fell back to a new session). */
const TURNS = [
  turn({ id: 1, role: "reviewer", trigger: "opened", headSha: PREVIOUS_SHA, sessionMode: "started" }),
  turn({
    id: 2,
    role: "fixer",
    trigger: "command",
    headSha: PREVIOUS_SHA,
    sessionMode: "started",
    tokensIn: 30_500,
    tokensOut: 4_100,
    costUsd: 1.137,
  }),
  turn({
    id: 3,
    role: "verifier",
    trigger: "verify",
    headSha: FIX_SHA,
    sessionMode: "cold",
    tokensIn: 800,
    tokensOut: 90,
    costUsd: 0.02,
  }),
  turn({
    id: 4,
    role: "reviewer",
    trigger: "synchronize",
    headSha: HEAD_SHA,
    sessionMode: "fallback",
    fallbackReason: "the stored session could not be resumed",
    tokensIn: 9_000,
    tokensOut: 700,
    costUsd: 0.31,
  }),
];

describe("summary comment", () => {
  it("open findings: every status, a ruling awaiting a maintainer, notes kept, a config note, the turn table", async () => {
    const body = renderSummary({
      findings: [
        sqlFinding({
          status: "fix-pushed",
          evidenceFromSha: FIX_SHA,
        }),
        roundingFinding({
          status: "open",
          verification: "refuted",
        }),
        finding({
          number: 3,
          severity: "error",
          title: "Migration cannot be rolled back",
          path: "db/migrations/0042_cents.sql",
          line: null,
          status: "fixed",
          verification: "confirmed",
        }),
        finding({
          number: 4,
          severity: "info",
          title: "Dead helper",
          status: "dismissed",
          dismissReason: "kept for the v1 API",
        }),
        finding({
          number: 5,
          severity: "warning",
          title: "Cache key | ignores currency",
          path: "src/cache|keys.ts",
          line: 8,
          status: "open",
          claimedResolvedSha: HEAD_SHA,
        }),
        finding({
          number: 6,
          severity: "error",
          title: "Retry loop never gives up",
          line: 90,
          status: "open",
          ruling: "withdrawn",
          rulingReason: "bounded by the caller",
          rulingBy: "dev-dana",
          rulingConfirmation: "awaiting",
        }),
        finding({
          number: 7,
          severity: "warning",
          title: "Logs the card number",
          status: "withdrawn",
          ruling: "withdrawn",
          rulingConfirmation: "writer",
        }),
        finding({
          number: 8,
          severity: "info",
          title: "Name could be clearer",
          status: "deferred",
          ruling: "deferred",
          rulingConfirmation: "not-needed",
        }),
        finding({
          number: 9,
          severity: "info",
          title: "Magic number 86400",
          path: "src/time.ts",
          line: 3,
          status: "note",
        }),
        finding({
          number: 10,
          severity: "warning",
          title: HOSTILE_TITLE,
          path: "src/@alice/x.ts",
          line: 1,
          status: "note",
        }),
      ],
      turns: TURNS,
      lastReviewedSha: HEAD_SHA,
      notes: [
        "⚠️ `.github/no-mistakes.yml` on the default branch has a problem, so defaults were used: review.fail_on: Invalid option\nexpected one of error|warning|info|never",
      ],
      failOn: "warning",
    });

    await expect(visible(body)).toMatchFileSnapshot(snap("summary-open-findings"));
    expect(
      body.startsWith(
        `${SUMMARY_MARKER}\n## no-mistakes\n\n**State: open findings** — 4 findings open at or above \`warning\` (\`review.fail_on\`).`,
      ),
    ).toBe(true);
    expect(body).toContain(
      "**4 open** (1 claimed resolved, unverified) · 1 resolved · 1 dismissed · 2 notes · last reviewed 4f1c2d3",
    );
    // open findings come first in the table, in ledger order
    const ids = [...body.matchAll(/^\| (NM-\d+) \|/gm)].map((m) => m[1]);
    expect(ids).toEqual(["NM-1", "NM-2", "NM-5", "NM-6", "NM-3", "NM-4", "NM-7", "NM-8"]);
    expect(body).not.toMatch(LIVE_MENTION);
    expect(body).toContain("| 4 | reviewer | synchronize | 4f1c2d3 | fallback ⚠️ | succeeded | 9.7k | $0.31 |");
  });

  it("converged: nothing open, and the last review raised nothing new", async () => {
    const body = renderSummary({
      findings: [
        finding({
          number: 1,
          severity: "error",
          title: "SQL built by string concatenation",
          status: "fixed",
          verification: "confirmed",
          introducedTurnId: 1,
        }),
        finding({
          number: 2,
          severity: "warning",
          title: "Discount rounds with floats",
          status: "fixed",
          introducedTurnId: 1,
        }),
      ],
      turns: TURNS,
      lastReviewedSha: HEAD_SHA,
      failOn: "error",
    });

    await expect(visible(body)).toMatchFileSnapshot(snap("summary-converged"));
    expect(body).toContain(
      "**State: converged** — Nothing open at or above `error`, and the last review raised nothing new.",
    );
    expect(body).toContain("**0 open** · 2 resolved · 0 dismissed · last reviewed 4f1c2d3");
  });

  it("converging: nothing fails the check, but the last review raised findings below fail_on", async () => {
    const body = renderSummary({
      findings: [
        finding({
          number: 1,
          severity: "error",
          title: "SQL built by string concatenation",
          status: "fixed",
          introducedTurnId: 1,
        }),
        finding({
          number: 2,
          severity: "warning",
          title: "Discount rounds with floats",
          status: "open",
          introducedTurnId: 4,
        }),
      ],
      turns: TURNS,
      lastReviewedSha: HEAD_SHA,
      failOn: "error",
    });

    await expect(visible(body)).toMatchFileSnapshot(snap("summary-converging"));
    expect(body).toContain(
      "**State: converging** — Nothing open at or above `error`; the last review raised 1 new finding that does not fail the check, still open.",
    );
  });

  it("stopped: the PR's turn budget is spent; more than 20 notes are counted, not listed", async () => {
    const { config } = parseRepoConfig("limits:\n  max_turns: 4\n");
    const stopped = budgetRefusal(spendOf(TURNS), config, "reviewer");
    const notes = Array.from({ length: 23 }, (_, i) =>
      finding({
        number: 20 + i,
        severity: "info",
        title: `Note ${i + 1}`,
        path: "src/legacy.ts",
        line: 100 + i,
        status: "note",
      }),
    );
    const body = renderSummary({
      findings: [
        finding({
          number: 1,
          severity: "error",
          title: "SQL built by string concatenation",
          status: "open",
          introducedTurnId: 1,
        }),
        ...notes,
      ],
      turns: TURNS,
      lastReviewedSha: HEAD_SHA,
      failOn: "error",
      stopped,
    });

    await expect(visible(body)).toMatchFileSnapshot(snap("summary-stopped"));
    expect(stopped).toBe("this PR has used its budget of 4 agent turns (limits.max_turns)");
    expect(body).toContain(
      "**State: stopped** — This PR has used its budget of 4 agent turns (limits.max_turns); no further reviews run. 1 finding open at or above `error`.",
    );
    expect(body).toContain("- … and 3 more");
    expect(body.match(/^- `src\/legacy\.ts:\d+`/gm)).toHaveLength(20);
  });

  it("says how much of the input the provider's cache served, in total and per turn", () => {
    const body = renderSummary({
      findings: [],
      turns: [
        turn({ id: 1, role: "reviewer", tokensIn: 40_000, tokensOut: 1_000, cacheReadTokens: 0 }),
        turn({
          id: 2,
          role: "reviewer",
          sessionMode: "resumed",
          tokensIn: 60_000,
          tokensOut: 1_000,
          cacheReadTokens: 50_000,
        }),
      ],
      lastReviewedSha: HEAD_SHA,
      failOn: "error",
    });
    expect(body).toContain("102.0k tokens (50% of input from cache)");
    expect(body).toContain("| 61.0k (50.0k cached) |");
    expect(body).toContain("| 41.0k |");
  });

  it("before the first review: no state line, no table, no turns", async () => {
    const body = renderSummary({ findings: [], turns: [], lastReviewedSha: null, failOn: "error" });

    await expect(visible(body)).toMatchFileSnapshot(snap("summary-before-first-review"));
    expect(body).not.toContain("**State:");
    expect(body).toBe(
      `${SUMMARY_MARKER}\n## no-mistakes\n\n**0 open** · 0 resolved · 0 dismissed\n\n<sub>Comment \`/no-mistakes help\` for commands.</sub>`,
    );
  });
});
