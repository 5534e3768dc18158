import { describe, expect, it } from "vitest";
import { findRun } from "../../src/db/runs.js";
import { FlowFixture, numbered, REPO_ID } from "../helpers/flow-fixture.js";
import { useFlowDatabase } from "../helpers/use-flow-database.js";

let fx: FlowFixture;
const database = useFlowDatabase(() => fx);

const BASE_FILES = 50;
const PR_APP = numbered("app", 30, { 10: "changed 10", 11: "for (i = 0; i < n; i++)", 12: "changed 12" });

/** Opens the PR (src/app.ts lines 10-12, a new src/new.ts) and lets the first review land. */
async function openReviewed(): Promise<string> {
  fx = await FlowFixture.start(database.handle);
  const head = fx.push({ "src/app.ts": PR_APP, "src/new.ts": numbered("new", 5) }, "first");
  fx.app.scenario([
    { role: "reviewer", match: "Widget change", times: 1, answer: { summary: "Fine.", findings: [], resolved: [] } },
  ]);
  await fx.app.receive("pull_request", fx.prPayload("opened", head));
  await fx.app.idle();
  expect(fx.github.reviews).toHaveLength(1);
  return head;
}

/** main moves on: 50 new files, and (when `alsoApp`) line 25 of src/app.ts, a file the PR changed too. Returns main's new head. */
function mainMovesOn(alsoApp: boolean): string {
  fx.remote.checkout("main");
  const files: Record<string, string> = {};
  for (let i = 0; i < BASE_FILES; i++) files[`gen/module${i}.ts`] = numbered(`base module ${i}`, 40);
  if (alsoApp) files["src/app.ts"] = numbered("app", 30, { 25: "main changed 25" });
  const tip = fx.remote.commit(files, "main: generated modules");
  fx.remote.publish("main");
  fx.remote.checkout("feature");
  return tip;
}

async function synchronize(head: string, step: Record<string, unknown>): Promise<string> {
  fx.app.scenario([step]);
  await fx.app.receive("pull_request", fx.prPayload("synchronize", head));
  await fx.app.idle();
  const calls = fx.app.agentCalls();
  expect(calls).toHaveLength(2);
  expect(calls[1]).toMatchObject({ role: "reviewer", resumed: true });
  return calls[1]!.prompt;
}

describe("incremental review after the base is merged into the PR", () => {
  it("reviews only the PR's own changes: the file both changed and the PR's new commit, none of the base's 50 files", async () => {
    const first = await openReviewed();
    const tip = mainMovesOn(true);
    fx.remote.merge("main");
    fx.remote.commit(
      { "src/new.ts": numbered("new", 5, { 2: "const own = 'the PR after the merge';" }) },
      "own change after the merge",
    );
    const head = fx.remote.publish("feature", fx.pr);

    const prompt = await synchronize(head, {
      role: "reviewer",
      match: "merged into it",
      answer: { summary: "Still fine.", findings: [], resolved: [] },
    });

    expect(prompt).toContain(`the base branch was merged into it (base ${fx.baseSha} → ${tip})`);
    expect(prompt).toContain(
      `The diff below is ${first}..${head} for only the files where the pull request's own changes differ`,
    );
    // the PR's own change after the merge, and the file both sides changed (with the base's change to it)
    expect(prompt).toContain("+const own = 'the PR after the merge';");
    expect(prompt).toContain("diff --git a/src/app.ts b/src/app.ts");
    expect(prompt).toContain("+main changed 25");
    // nothing of the base's own files
    expect(prompt).not.toContain("gen/module");
    expect(prompt).not.toContain("base module");

    const run = (await findRun(database.handle.db, REPO_ID, fx.pr))!;
    expect(run.lastReviewedSha).toBe(head);
    expect(fx.github.reviews).toHaveLength(2);
    expect(fx.github.reviews[1]!.body).toContain(
      `the PR's own changes only (the base moved from ${fx.baseSha.slice(0, 7)} to ${tip.slice(0, 7)} by a merge)`,
    );
  });

  it("a merge that brings nothing of the PR's own: the prompt says there is nothing new, and stays small", async () => {
    const first = await openReviewed();
    const firstPrompt = fx.app.agentCalls()[0]!.prompt;
    const tip = mainMovesOn(false);
    const head = fx.remote.merge("main");
    fx.remote.publish("feature", fx.pr);

    const prompt = await synchronize(head, {
      role: "reviewer",
      match: "nothing new",
      answer: { summary: "Nothing new.", findings: [], resolved: [] },
    });

    expect(prompt).toContain(`the base branch was merged into it (base ${fx.baseSha} → ${tip})`);
    expect(prompt).toContain("there is nothing new of its own to review, so the diff below is empty");
    expect(prompt).toContain("<untrusted-diff>\n\n</untrusted-diff>");
    expect(prompt).not.toContain("gen/module");
    expect(prompt).not.toContain(first.slice(0, 12) + "..");
    // smaller than the first review's prompt of this small PR, and far from the 50 files' diff
    expect(Buffer.byteLength(prompt)).toBeLessThan(Buffer.byteLength(firstPrompt));
    expect(Buffer.byteLength(prompt)).toBeLessThan(3600);

    // still a valid turn: reviewed, posted, recorded
    const run = (await findRun(database.handle.db, REPO_ID, fx.pr))!;
    expect(run.lastReviewedSha).toBe(head);
    expect(fx.github.reviews).toHaveLength(2);
  });
});
