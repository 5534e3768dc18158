import { describe, expect, it } from "vitest";
import { renderRunPage } from "../../../src/web/pages/render-run-page.js";
import type { PageContext } from "../../../src/web/pages/page-context.js";
import type { TurnRow } from "../../../src/web/views/run-view.js";
import { parsePage, type Element, type ParsedPage } from "./parse-page.js";
import { viewFixtures } from "./view-fixtures.js";

const ctx: PageContext = {
  user: { login: "alice" },
  operator: false,
  github: { webOrigin: "https://ghe.example.com" },
};
const text = (field: string) => (["owner", "repository"].includes(field) ? field : `plain ${field}`);

function rowsOf(page: ParsedPage, tableClass: string): Element[] {
  const [table] = page.byClass(tableClass);
  if (!table) throw new Error(`no table ${tableClass}`);
  const tbody = table.childNodes.find((c): c is Element => "tagName" in c && c.tagName === "tbody")!;
  return tbody.childNodes.filter((c): c is Element => "tagName" in c && c.tagName === "tr");
}

const squash = (s: string) => s.replace(/\s+/g, " ").trim();

/** Whether `node` sits inside the element with id `id`. */
function within(page: ParsedPage, node: Element, id: string): boolean {
  const outer = page.byId(id);
  if (!outer) return false;
  const walk = (e: Element): boolean => e === node || e.childNodes.some((c) => "tagName" in c && walk(c as Element));
  return walk(outer);
}

describe("renderRunPage", () => {
  it("renders every one of 500 findings and each of their events, with 300 turns", () => {
    const view = viewFixtures({ text, findings: 500, eventsPerFinding: 3, turns: 300 }).run;
    const page = parsePage(renderRunPage(view, ctx));
    const findings = page.byClass("finding");
    expect(findings).toHaveLength(500);
    expect(findings.map((f) => page.attr(f, "id"))).toEqual(view.findings.map((f) => `NM-${f.number}`));
    expect(findings.every((f) => f.tagName === "details")).toBe(true);
    expect(page.byClass("event")).toHaveLength(1500);
    const nm500 = page.byId("NM-500")!;
    expect(page.text(nm500)).toContain("plain finding title 500");
    expect(page.text(nm500)).toContain("plain event detail 500.3");
    expect(rowsOf(page, "turns")).toHaveLength(300);
  });

  it("shows each session mode with its meaning, and the reason a turn did not resume", () => {
    const modes = ["started", "resumed", "fallback", "rollover", "cold", null];
    const view = viewFixtures({ text, turns: modes.length, sessionModes: modes }).run;
    view.turns = view.turns.map((t: TurnRow) => (t.sessionMode === "fallback" ? t : { ...t, fallbackReason: null }));
    const page = parsePage(renderRunPage(view, ctx));
    const rows = rowsOf(page, "turns");
    expect(rows).toHaveLength(6);
    const sessionCells = rows.map((r) => squash(page.text(r.childNodes.filter((c) => "tagName" in c)[6]!)));
    const expected = [
      ["started", "started a new session"],
      ["resumed", "resumed the role's session"],
      ["fallback", "could not resume"],
      ["rollover", "outgrew its budget"],
      ["cold", "without a stored session"],
      ["starting", "still starting"],
    ];
    expected.forEach(([mode, meaning], i) => {
      expect(squash(page.text(page.byClass("session-mode")[i]!))).toBe(mode);
      expect(sessionCells[i]).toContain(meaning);
    });
    const fallback = rowsOf(page, "turns")[2]!;
    expect(page.text(fallback)).toContain("plain fallback reason 2");
    expect(page.byClass("fallback-reason")).toHaveLength(1);
  });

  it("links the PR, the inline comments, the commands and the commits on the configured GitHub", () => {
    const view = viewFixtures({ text, findings: 2 }).run;
    const page = parsePage(renderRunPage(view, ctx));
    const hrefs = page.byTag("a").map((a) => page.attr(a, "href"));
    expect(hrefs).toContain("https://ghe.example.com/owner/repository/pull/7");
    expect(hrefs).toContain("https://ghe.example.com/owner/repository/pull/7#discussion_r5000");
    expect(hrefs).toContain("https://ghe.example.com/owner/repository/pull/7#discussion_r5001");
    expect(hrefs).toContain("https://ghe.example.com/owner/repository/pull/7#issuecomment-111");
    expect(hrefs).toContain("https://ghe.example.com/owner/repository/pull/7#discussion_r222");
    expect(hrefs).toContain("https://ghe.example.com/owner/repository/commit/89abcdef0123456789abcdef0123456789abcdef");
    expect(hrefs.filter((h) => h?.startsWith("https://github.com"))).toEqual([]);
    const other = parsePage(renderRunPage(view, { ...ctx, github: { webOrigin: "https://github.com/" } }));
    expect(other.byTag("a").map((a) => other.attr(a, "href"))).toContain("https://github.com/owner/repository/pull/7");
  });

  it("leaves out the comment link of a finding that was not posted inline", () => {
    const view = viewFixtures({ text, findings: 1 }).run;
    view.findings[0] = { ...view.findings[0]!, commentId: null };
    const page = parsePage(renderRunPage(view, ctx));
    expect(
      page
        .byTag("a")
        .map((a) => page.attr(a, "href"))
        .filter((h) => h?.includes("#discussion_r5")),
    ).toEqual([]);
  });

  it("shows a finding's body as preformatted text, and its ruling, verification and place", () => {
    const view = viewFixtures({ text, findings: 1 }).run;
    view.findings[0] = { ...view.findings[0]!, body: "line one\n  <b>indented</b> **bold**" };
    const page = parsePage(renderRunPage(view, ctx));
    const finding = page.byId("NM-1")!;
    const body = page.byClass("body")[0]!;
    expect(body.tagName).toBe("pre");
    expect(page.text(body).replace(/\u200c/g, "")).toBe("line one\n  <b>indented</b> **bold**");
    const facts = squash(page.text(finding));
    expect(facts).toContain("withdrawn · argued by plain ruling by · awaiting by plain confirmed by");
    expect(facts).toContain("plain ruling reason");
    expect(facts).toContain("Verification refuted");
    expect(facts).toContain("plain path:10-12");
    expect(facts).toContain("Dismissed because plain dismiss reason");
  });

  it("shows the totals: cost to a hundredth of a cent, tokens with separators, the cache's share", () => {
    const page = parsePage(renderRunPage(viewFixtures({ text, turns: 3 }).run, ctx));
    const cells = squash(page.text(rowsOf(page, "totals")[0]!)).split(" ");
    // execution time: a cached setup (0), a check (1.5 s), three reproducers (2 s each), a check of no turn (1.5 s)
    expect(cells).toEqual(["3", "$0.0370", "1,234,567", "89,012", "617,283", "3,456", "50.0%", "9", "s"]);
  });

  it("shows under each finding its reproducer's runs: outcome, command, exit, duration, the output's end folded", () => {
    const page = parsePage(renderRunPage(viewFixtures({ text, findings: 3, executionsPerFinding: 2 }).run, ctx));
    const runsOf = (id: string) => page.byClass("execution").filter((e) => within(page, e, id));
    const nm1 = runsOf("NM-1").map((e) => squash(page.text(e)));
    expect(nm1).toHaveLength(2);
    expect(nm1[0]).toMatch(
      /^reproduced reproducer review on 89abcde · exit 1 · 2 s · in turn 100 plain reproducer command 1 output: its last \d+ of 8,000 characters/,
    );
    expect(nm1[1]).toContain("not-reproduced reproducer review on 89abcde · exit 0 · 2 s");
    expect(squash(page.text(runsOf("NM-2")[0]!))).toContain("broken reproducer review on 89abcde · no exit code · 2 s");
    const [output] = page.byClass("output").filter((o) => o.tagName === "details" && within(page, o, "NM-1"));
    expect(page.attr(output!, "open")).toBeUndefined();
    expect(page.text(output!)).toContain("plain execution output\nFAIL test.js");
    expect(page.text(output!)).not.toContain("\u001b");
  });

  it("shows what each turn ran, with the turn's execution time beside its duration; a finding without runs shows none", () => {
    const view = viewFixtures({ text, findings: 2, turns: 2 }).run;
    const page = parsePage(renderRunPage(view, ctx));
    const timeline = rowsOf(page, "turns").map((r) =>
      squash(page.text(r.childNodes.filter((c) => "tagName" in c)[14]!)),
    );
    expect(timeline).toEqual(["6 s (4 runs)", "—"]);
    const turn = page.byId("executions-turn-100")!;
    expect(squash(page.text(turn))).toMatch(/^Turn 100 reviewer · 4 runs, 6 s /);
    const ran = page.byClass("execution").filter((e) => within(page, e, "executions-turn-100"));
    expect(ran.map((e) => squash(page.text(e)).split(" ").slice(0, 2).join(" "))).toEqual([
      "passed setup",
      "passed check",
      "reproduced reproducer",
      "not-reproduced reproducer",
    ]);
    expect(squash(page.text(ran[0]!))).toContain("· 0 ms · from the cache");
    expect(squash(page.text(page.byId("executions-no-turn")!))).toContain(
      "failed check plain check name before on 89abcde · exit 2",
    );
    view.findings[1]!.executions = [];
    const without = parsePage(renderRunPage(view, ctx));
    expect(without.byClass("reproducer-runs").filter((h) => within(without, h, "NM-2"))).toEqual([]);
    expect(without.byClass("reproducer-runs").filter((h) => within(without, h, "NM-1"))).toHaveLength(1);
  });

  it("says so when nothing of the repository's ran", () => {
    const view = viewFixtures({ text }).run;
    view.executions = [];
    view.findings = view.findings.map((f) => ({ ...f, executions: [] }));
    const page = parsePage(renderRunPage(view, ctx));
    expect(squash(page.text(page.byId("executions")!))).toContain("Nothing of the repository's was run.");
    expect(page.byClass("execution")).toEqual([]);
  });

  it("gives every time as ISO UTC in a time element", () => {
    const page = parsePage(renderRunPage(viewFixtures({ text }).run, ctx));
    const times = page.byTag("time");
    expect(times.length).toBeGreaterThan(10);
    for (const t of times) {
      const datetime = page.attr(t, "datetime")!;
      expect(datetime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(page.text(t)).toBe(`${datetime.slice(0, 10)} ${datetime.slice(11, 19)} UTC`);
    }
  });

  it("lists each role's session and each command", () => {
    const page = parsePage(renderRunPage(viewFixtures({ text }).run, ctx));
    expect(squash(page.text(rowsOf(page, "sessions")[0]!))).toContain(
      "reviewer plain agent plain session id 45,678 12,000 3",
    );
    const commands = rowsOf(page, "commands").map((r) => squash(page.text(r)));
    expect(commands).toHaveLength(2);
    expect(commands[0]).toContain("plain command author plain command done");
    expect(commands[1]).toContain("reply pending");
  });

  it("folds a failed turn's error and keeps it as text", () => {
    const page = parsePage(renderRunPage(viewFixtures({ text }).run, ctx));
    const [error] = page.byClass("error");
    expect(error?.tagName).toBe("details");
    expect(page.text(error!)).toContain("plain turn error");
  });
});
