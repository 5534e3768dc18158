import { describe, expect, it } from "vitest";
import { renderRepositoryPage } from "../../../src/web/pages/render-repository-page.js";
import { scorecardSection } from "../../../src/web/pages/scorecard-section.js";
import type { PageContext } from "../../../src/web/pages/page-context.js";
import { emptyCounts, type Scorecard } from "../../../src/web/views/scorecard-view.js";
import { parsePage } from "./parse-page.js";
import { viewFixtures } from "./view-fixtures.js";

const ctx: PageContext = { user: { login: "alice" }, operator: false, github: { webOrigin: "https://github.com" } };
const since = new Date("2026-09-07T00:00:00Z");
const weeks = Array.from({ length: 12 }, (_, i) => ({
  weekStart: new Date(since.getTime() + i * 7 * 86_400_000),
  posted: i === 10 ? 4 : i === 11 ? 5 : 0,
  fixed: i === 10 ? 1 : i === 11 ? 2 : 0,
  noise: i === 11 ? 1 : 0,
}));

function card(change: Partial<Scorecard> = {}): Scorecard {
  const total = { ...emptyCounts(), posted: 9, fixed: 3, dismissed: 1, withdrawn: 1, openAtMerge: 2, open: 2 };
  return {
    since,
    total,
    byAgentModel: [
      {
        agent: "claude-code",
        model: '<img src=x onerror="alert(1)">',
        ...total,
        turns: 8,
        resumedTurns: 2,
        spendUsd: 1.5,
        pushToReviewSeconds: 95,
      },
      {
        agent: "codex",
        model: null,
        ...emptyCounts(),
        turns: 0,
        resumedTurns: 0,
        spendUsd: 0,
        pushToReviewSeconds: 3 * 86_400 + 4 * 3600,
      },
    ],
    bySeverity: [{ label: "error", ...total }],
    byReproduction: [{ label: "reproduced", ...total }],
    byRepository: [{ label: "octo/else", ...total }],
    turns: 8,
    resumedTurns: 2,
    spendUsd: 1.5,
    pushToReviewSeconds: 95,
    secondsToOutcome: [
      { outcome: "fixed", seconds: 3720 },
      { outcome: "open-at-merge", seconds: 3 * 86_400 + 4 * 3600 },
    ],
    weeks,
    ...change,
  };
}

describe("scorecardSection", () => {
  it("shows the rates, spend and times, and each breakdown as a table", () => {
    const page = parsePage(scorecardSection(card()).markup);
    const facts = page.text(page.byTag("dl")[0]).replace(/\s+/g, " ");
    expect(facts).toContain("Posted 9 (2 still open)");
    expect(facts).toContain("Addressed 33% (3 fixed)");
    expect(facts).toContain("Noise 22% (1 dismissed, 1 withdrawn)");
    expect(facts).toContain("2 open at merge, 0 abandoned");
    expect(facts).toContain("$1.5000 over 8 turns; $0.5000 per addressed finding");
    expect(facts).toContain("Push to review 1 m 35 s (median)");
    expect(facts).toContain("Time to fix 1 h 02 m");
    expect(facts).toContain("Resumed turns 25% of 8");
    const agents = page.byClass("scorecard-agents")[0]!;
    const rows = page.byTag("tr").filter((r) => page.text(r).includes("codex"));
    expect(page.text(rows[0]).replace(/\s+/g, " ")).toContain("codex unknown 0 0 – – 0 – $0.0000 – 3 d 04 h");
    // the model id is the CLI's: shown inert, as text
    expect(page.text(agents)).toContain('onerror="alert(1)"');
    expect(page.byTag("img")).toHaveLength(0);
    expect(page.byClass("scorecard-groups").map((t) => page.text(t).trim().split(/\s+/)[0])).toEqual([
      "Severity",
      "Reproduction",
    ]);
  });

  it("names repositories only when asked (the operator's page)", () => {
    expect(scorecardSection(card()).markup).not.toContain("octo/else");
    expect(scorecardSection(card(), { byRepository: true }).markup).toContain("octo/else");
  });

  it("draws the weekly trends as SVG the CSP allows: no script, no inline style, colours by class", () => {
    const page = parsePage(scorecardSection(card()).markup);
    const charts = page.byTag("svg");
    expect(charts).toHaveLength(2);
    for (const chart of charts) {
      expect(page.attr(chart, "viewBox")).toBe("0 0 320 120");
      expect(page.attr(chart, "role")).toBe("img");
    }
    expect(page.elements.filter((e) => page.attr(e, "style") !== undefined || e.tagName === "script")).toEqual([]);
    expect(page.attr(charts[0]!, "aria-label")).toContain("11-16: 1 of 4 fixed, 0 noise; 11-23: 2 of 5 fixed, 1 noise");
    // one point per line for each week that posted anything: weeks 10 and 11, at 25% and 40% addressed
    const addressed = page.byTag("polyline").find((p) => page.attr(p, "class") === "line addressed")!;
    expect(page.attr(addressed, "points")).toBe("288.2,77 314,63.2");
    expect(page.byTag("rect").filter((r) => page.attr(r, "class") === "bar")).toHaveLength(12);
  });

  it("with nothing posted: dashes, not zeros or NaN", () => {
    const markup = scorecardSection(
      card({
        total: emptyCounts(),
        byAgentModel: [],
        turns: 0,
        resumedTurns: 0,
        spendUsd: 0,
        pushToReviewSeconds: null,
        secondsToOutcome: [],
        weeks: weeks.map((w) => ({ ...w, posted: 0, fixed: 0, noise: 0 })),
      }),
    ).markup;
    expect(markup).not.toContain("NaN");
    const page = parsePage(markup);
    expect(page.text(page.byTag("dl")[0]).replace(/\s+/g, " ")).toContain("Addressed – (0 fixed)");
    expect(page.text()).toContain("Nothing reviewed in this period.");
  });

  it("sits on the repository page below its pull requests", () => {
    const markup = renderRepositoryPage({ ...viewFixtures().repository, fullName: "octo/repo" }, ctx, card());
    expect(markup.indexOf('id="scorecard"')).toBeGreaterThan(markup.indexOf("pull-requests"));
    expect(renderRepositoryPage({ ...viewFixtures().repository, fullName: "octo/repo" }, ctx)).not.toContain(
      "Scorecard",
    );
  });
});
