import { describe, expect, it } from "vitest";
import { listFindings } from "../../src/db/findings.js";
import { findRun } from "../../src/db/runs.js";
import type { StandInOptions } from "../helpers/github-stand-in.js";
import { FlowFixture, numbered, REPO_ID } from "../helpers/flow-fixture.js";
import { useFlowDatabase } from "../helpers/use-flow-database.js";

/**
 * Reviews that converge: after the first review, a push's review raises new findings only on what the
 * PR's own changes touched since the last reviewed head (or on code those changes break, named by
 * `broken_by`); anything else about unchanged code is kept as a note in the summary — unless it is an
 * error. Real git histories: pushes that change some files and not others, a rename, a base merge.
 */

let fx: FlowFixture;
const database = useFlowDatabase(() => fx);

const PUSH1_APP = numbered("app", 30, { 10: "changed 10", 11: "for (i = 0; i <= n; i++)", 12: "changed 12" });
const warning = (path: string, line: number, title: string, extra: Record<string, unknown> = {}) => ({
  path,
  line,
  severity: "warning",
  action: "ask-user",
  title,
  body: `About ${title}.`,
  ...extra,
});
const error = (path: string, line: number, title: string, extra: Record<string, unknown> = {}) => ({
  ...warning(path, line, title, extra),
  severity: "error",
  action: "auto-fix",
});

/** Opens the PR (src/app.ts lines 10-12, a new src/new.ts) and lets the first review land with `findings`. */
async function openReviewed(findings: unknown[] = [], standIn: Partial<StandInOptions> = {}): Promise<string> {
  fx = await FlowFixture.start(database.handle, standIn);
  const head = fx.push({ "src/app.ts": PUSH1_APP, "src/new.ts": numbered("new", 5) }, "first");
  fx.app.scenario([
    {
      role: "reviewer",
      match: "Review the whole pull request",
      times: 1,
      answer: { summary: "First look.", findings, resolved: [] },
    },
  ]);
  await fx.app.receive("pull_request", fx.prPayload("opened", head));
  await fx.app.idle();
  expect(fx.github.reviews).toHaveLength(1);
  return head;
}

/** Publishes the feature branch and lets the review of the push land with `answer`; returns the head and the prompt. */
async function reviewPush(
  before: string,
  answer: { findings: unknown[]; resolved?: string[] },
): Promise<{ head: string; prompt: string }> {
  const head = fx.remote.publish("feature", fx.pr);
  const turnsBefore = fx.app.agentCalls().length;
  fx.app.scenario([
    { role: "reviewer", match: "broken_by", times: 1, answer: { summary: "Later look.", resolved: [], ...answer } },
  ]);
  await fx.app.receive("pull_request", fx.prPayload("synchronize", head, { before }));
  await fx.app.idle();
  const calls = fx.app.agentCalls();
  expect(calls).toHaveLength(turnsBefore + 1);
  return { head, prompt: calls.at(-1)!.prompt };
}

const ledger = async () => listFindings(database.handle.db, (await findRun(database.handle.db, REPO_ID, fx.pr))!.id);
const checkOf = (head: string) => [...fx.github.checkRuns.values()].find((c) => c.head_sha === head)!;
const lastReview = () => fx.github.sent("POST", `/pulls/${fx.pr}/reviews`).at(-1)!.body;

describe("a later review raises new findings only on what changed", () => {
  it("a warning on an unchanged line is a note in the summary: not posted inline, not failing the check", async () => {
    const first = await openReviewed([], { configYaml: "review:\n  fail_on: warning\n" });
    fx.remote.commit({ "src/new.ts": numbered("new", 5, { 2: "const own = 2;" }) }, "second");
    const { head, prompt } = await reviewPush(first, {
      findings: [
        warning("src/app.ts", 11, "Loop bound reads oddly"),
        warning("src/app.ts", 25, "Unused helper"),
        warning("src/new.ts", 2, "Magic number"),
      ],
    });

    // the prompt said so
    expect(prompt).toContain(`Review only the changes in ${first}..${head}`);
    expect(prompt).toContain("Raise a new finding only on a changed line");
    // only the finding on the changed line is posted
    const review = lastReview();
    expect(review.comments.map((c: any) => [c.path, c.line])).toEqual([["src/new.ts", 2]]);
    expect(review.body).not.toContain("Unused helper");
    expect(review.body).toContain("2 findings on code unchanged since the last review");
    expect((await ledger()).map((f) => [f.number, f.path, f.line, f.status, f.reviewId !== null])).toEqual([
      [1, "src/app.ts", 11, "note", false],
      [2, "src/app.ts", 25, "note", false],
      [3, "src/new.ts", 2, "open", true],
    ]);
    const summary = fx.summary();
    expect(summary).toContain("**1 open** · 0 resolved · 0 dismissed · 2 notes");
    expect(summary).toContain("- `src/app.ts:25` 🟡 warning — Unused helper (NM-2)");
    expect(summary).toContain("- `src/app.ts:11` 🟡 warning — Loop bound reads oddly (NM-1)");
    // the check fails on the open warning only (fail_on: warning); the notes are not counted
    expect(checkOf(head)).toMatchObject({ conclusion: "failure", output: { title: "1 open finding (1 warning)" } });
    // `status` lists them apart from the open findings
    await fx.comment("/no-mistakes status");
    const status = fx.replies().at(-1)!;
    expect(status).toContain("**Open findings (1)**");
    expect(status).toContain("**Notes (2)**");
    expect(status).toContain("NM-2 `src/app.ts:25` Unused helper");
  });

  it("the same finding on an unchanged line with severity error is raised and posted", async () => {
    const first = await openReviewed();
    fx.remote.commit({ "src/new.ts": numbered("new", 5, { 2: "const own = 2;" }) }, "second");
    const { head } = await reviewPush(first, { findings: [error("src/app.ts", 11, "Off-by-one in loop bound")] });

    expect(lastReview().comments.map((c: any) => [c.path, c.line])).toEqual([["src/app.ts", 11]]);
    expect((await ledger()).map((f) => [f.number, f.status])).toEqual([[1, "open"]]);
    expect(checkOf(head).conclusion).toBe("failure");
  });

  it("broken_by a changed line → posted, and it says what broke it; broken_by an unchanged line → a note", async () => {
    const first = await openReviewed();
    fx.remote.commit({ "src/new.ts": numbered("new", 5, { 2: "export const limit = -1;" }) }, "second");
    const { head } = await reviewPush(first, {
      findings: [
        warning("src/app.ts", 11, "Loop runs forever with a negative limit", {
          broken_by: { path: "src/new.ts", line: 2 },
        }),
        warning("src/app.ts", 12, "Claims a break that is not there", { broken_by: { path: "src/new.ts", line: 4 } }),
      ],
    });

    const comments = lastReview().comments;
    expect(comments.map((c: any) => [c.path, c.line])).toEqual([["src/app.ts", 11]]);
    expect(comments[0].body).toContain("Broken by the change at `src/new.ts:2`.");
    expect((await ledger()).map((f) => [f.number, f.status])).toEqual([
      [1, "open"],
      [2, "note"],
    ]);
    expect(fx.summary()).toContain("Claims a break that is not there (NM-2)");
    expect(checkOf(head).output.title).toBe("Converging · 1 open finding (1 warning)");
  });

  it("a restated open finding (by id) on unchanged code is still one thread, still open", async () => {
    const first = await openReviewed([warning("src/app.ts", 11, "Loop bound reads oddly")]);
    const thread = fx.github.reviewComments.map((c) => c.id);
    expect(thread).toHaveLength(1);
    fx.remote.commit({ "src/new.ts": numbered("new", 5, { 2: "const own = 2;" }) }, "second");
    const { prompt } = await reviewPush(first, {
      findings: [{ ...warning("src/app.ts", 11, "The loop bound is still odd (reworded)"), id: "NM-1" }],
    });

    expect(prompt).toContain("NM-1 open warning src/app.ts:11"); // the id it was given, from the ledger's changes
    expect(lastReview().comments).toEqual([]);
    expect(fx.github.reviewComments.map((c) => c.id)).toEqual(thread);
    const after = await ledger();
    expect(after.map((f) => [f.number, f.status, f.commentId])).toEqual([[1, "open", thread[0]]]);
    expect(fx.summary()).not.toContain("**Notes**");
  });

  it("the summary's state: open findings → converged after a push that fixes it and adds none", async () => {
    const first = await openReviewed([error("src/app.ts", 11, "Off-by-one in loop bound")]);
    expect(fx.summary().split("\n")[3]).toBe(
      "**State: open findings** — 1 finding open at or above `error` (`review.fail_on`).",
    );
    expect(checkOf(first).output.summary.split("\n")[0]).toContain("**State: open findings**");

    fx.remote.commit(
      { "src/app.ts": numbered("app", 30, { 10: "changed 10", 11: "for (i = 0; i < n; i++)", 12: "changed 12" }) },
      "fix the bound",
    );
    const { head } = await reviewPush(first, { findings: [], resolved: ["NM-1"] });

    expect((await ledger()).map((f) => [f.number, f.status])).toEqual([[1, "fixed"]]);
    expect(fx.summary().split("\n")[3]).toBe(
      "**State: converged** — Nothing open at or above `error`, and the last review raised nothing new.",
    );
    expect(checkOf(head)).toMatchObject({ conclusion: "success", output: { title: "Converged · No open findings" } });
  });

  it("the summary's state: stopped once the turn limit is reached; a later push is not reviewed and the summary still says so", async () => {
    const first = await openReviewed([warning("src/app.ts", 11, "Loop bound reads oddly")], {
      configYaml: "limits:\n  max_turns: 2\n",
    });
    expect(fx.summary()).toContain("**State: converging**");
    fx.remote.commit({ "src/new.ts": numbered("new", 5, { 2: "const own = 2;" }) }, "second");
    const { head } = await reviewPush(first, { findings: [] });
    const stopped =
      "**State: stopped** — This PR has used its budget of 2 agent turns (limits.max_turns); no further reviews run.";
    expect(fx.summary()).toContain(stopped);
    expect(checkOf(head).output.title).toBe("Stopped · 1 open finding (1 warning)");

    fx.remote.commit({ "src/new.ts": numbered("new", 5, { 2: "const own = 3;" }) }, "third");
    const third = fx.remote.publish("feature", fx.pr);
    await fx.app.receive("pull_request", fx.prPayload("synchronize", third, { before: head }));
    await fx.app.idle();
    expect(fx.app.agentCalls()).toHaveLength(2);
    expect(fx.summary()).toContain(stopped);
  });
});

describe("what changed is the PR's own change, through renames and base merges", () => {
  it("a rename with an edit: the edited line takes findings; the renamed file's other lines, on either path, are notes", async () => {
    fx = await FlowFixture.start(database.handle);
    fx.remote.commit({ "src/util.ts": numbered("util", 20) }, "more base");
    fx.remote.publish("main");
    const first = fx.push({ "src/app.ts": PUSH1_APP }, "first");
    fx.app.scenario([{ role: "reviewer", times: 1, answer: { summary: "First look.", findings: [], resolved: [] } }]);
    await fx.app.receive("pull_request", fx.prPayload("opened", first));
    await fx.app.idle();

    fx.remote.git(fx.remote.work, "mv", "src/util.ts", "src/helpers.ts");
    fx.remote.commit(
      { "src/helpers.ts": numbered("util", 20, { 12: "edited after the rename" }) },
      "rename util to helpers",
    );
    await reviewPush(first, {
      findings: [
        warning("src/helpers.ts", 12, "Edited line"),
        warning("src/helpers.ts", 3, "Untouched line"),
        warning("src/util.ts", 5, "Reported on the old path"),
      ],
    });

    expect(lastReview().comments.map((c: any) => [c.path, c.line])).toEqual([["src/helpers.ts", 12]]);
    expect((await ledger()).map((f) => [f.path, f.line, f.status])).toEqual([
      ["src/helpers.ts", 12, "open"],
      ["src/helpers.ts", 3, "note"],
      ["src/helpers.ts", 5, "note"],
    ]);
  });

  it("after a base merge, lines the base changed are not the PR's: findings there are notes; the PR's own new line is raised", async () => {
    const first = await openReviewed();
    fx.remote.checkout("main");
    fx.remote.commit(
      { "src/app.ts": numbered("app", 30, { 25: "main changed 25" }), "gen/module.ts": numbered("gen", 10) },
      "main moves on",
    );
    fx.remote.publish("main");
    fx.remote.checkout("feature");
    fx.remote.merge("main");
    fx.remote.commit({ "src/new.ts": numbered("new", 5, { 3: "const own = 3;" }) }, "own change after the merge");
    const { prompt } = await reviewPush(first, {
      findings: [
        warning("src/app.ts", 25, "Base line"),
        warning("gen/module.ts", 4, "Base file"),
        warning("src/new.ts", 3, "Own line"),
        error("gen/module.ts", 6, "Base file error"),
      ],
    });

    expect(prompt).toContain("merged into it");
    expect(lastReview().comments.map((c: any) => [c.path, c.line])).toEqual([["src/new.ts", 3]]);
    expect((await ledger()).map((f) => [f.path, f.line, f.status])).toEqual([
      ["src/app.ts", 25, "note"],
      ["gen/module.ts", 4, "note"],
      ["src/new.ts", 3, "open"],
      ["gen/module.ts", 6, "open"], // an error is always raised (in the body: the file is not in the PR's diff)
    ]);
    expect(lastReview().body).toContain("Base file error");
  });
});
