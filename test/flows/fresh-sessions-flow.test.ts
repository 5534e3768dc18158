import { describe, expect, it } from "vitest";
import { FlowFixture, numbered } from "../helpers/flow-fixture.js";
import { useFlowDatabase } from "../helpers/use-flow-database.js";

/**
 * Every new reviewer session gets a prompt that stands alone — the whole PR's diff, the ledger, the PR's
 * title and body — and never one written for a session that remembers ("you reviewed this before", the
 * last push's diff only). A session that is resumed gets only what changed since it last spoke.
 */

let fx: FlowFixture;
const database = useFlowDatabase(() => fx);
const WRITER = { login: "maintainer" };

const FIRST = {
  "src/app.ts": numbered("app", 30, { 11: "for (i = 0; i <= n; i++)" }),
  "src/first.ts": numbered("first", 5),
};
const finding = {
  path: "src/app.ts",
  line: 11,
  severity: "warning",
  action: "ask-user",
  title: "Loop bound reads oddly",
  body: "The loop runs n+1 times.",
};

/** Opens the PR and lets its first review raise NM-1; returns the head. */
async function openReviewed(env: Record<string, string> = {}, configYaml?: string): Promise<string> {
  fx = await FlowFixture.start(
    database.handle,
    { permissions: { maintainer: "write" }, ...(configYaml ? { configYaml } : {}) },
    { env },
  );
  const head = fx.push(FIRST, "first");
  fx.app.scenario([
    { role: "reviewer", answer: { summary: "First look: one odd loop.", findings: [finding], resolved: [] } },
  ]);
  await fx.pullRequest("opened", head);
  expect(fx.github.reviews).toHaveLength(1);
  return head;
}

/** A second push adding src/second.ts, reviewed with `step` extras; returns the reviewer prompt(s) of that review. */
async function secondPush(before: string, step: Record<string, unknown> = {}): Promise<string[]> {
  const calls = fx.app.agentCalls().length;
  const head = fx.push({ "src/second.ts": numbered("second", 4) }, "second");
  fx.app.scenario([{ role: "reviewer", answer: { summary: "Second look.", findings: [], resolved: [] }, ...step }]);
  await fx.pullRequest("synchronize", head, { before });
  return fx.app
    .agentCalls()
    .slice(calls)
    .filter((c) => c.role === "reviewer")
    .map((c) => c.prompt);
}

/** What a prompt that stands alone must hold, and must not say. */
function expectStandsAlone(prompt: string): void {
  expect(prompt).toContain("Review the whole pull request.");
  expect(prompt).toContain("+first line 1"); // the first push's file: the whole PR, not the last push
  expect(prompt).toContain("+second line 1");
  expect(prompt).toContain("NM-1 warning src/app.ts:11: Loop bound reads oddly"); // the ledger, with its body
  expect(prompt).toContain("The loop runs n+1 times.");
  expect(prompt).toContain("<untrusted-pr-content>");
  expect(prompt).toContain("Rules:");
  expect(prompt).not.toMatch(/you reviewed|your last review|your first turn/i);
}

describe("a new reviewer session gets a prompt that stands alone", () => {
  it("the first turn", async () => {
    await openReviewed();
    const [first] = fx.app.agentCalls();
    expect(first!.prompt).toContain("Review the whole pull request.");
    expect(first!.prompt).not.toMatch(/you reviewed|your last review/i);
  });

  it("a resume that fails runs the same turn in a fresh session, with the whole PR", async () => {
    const head = await openReviewed();
    const prompts = await secondPush(head, { failResume: true });
    // the failed resume was asked with the short prompt; the fresh session got the whole PR
    expect(prompts.at(-1)).toBeDefined();
    expectStandsAlone(prompts.at(-1)!);
    const turns = await fx.turns();
    expect(turns.at(-1)).toMatchObject({ sessionMode: "fallback", status: "succeeded" });
  });

  it("a session past AGENT_SESSION_MAX_TOKENS rolls over: a new session from a digest, recorded as `rollover`", async () => {
    const head = await openReviewed({ AGENT_SESSION_MAX_TOKENS: "100" });
    const [prompt] = await secondPush(head);
    expectStandsAlone(prompt!);
    expect(prompt).toContain("First look: one odd loop."); // the previous session's last summary
    const turns = await fx.turns();
    expect(turns.at(-1)).toMatchObject({ sessionMode: "rollover", status: "succeeded" });
    expect(turns.at(-1)!.fallbackReason).toMatch(/past its budget of 100: a new session starts from a digest/);
    const calls = fx.app.agentCalls();
    expect(calls.at(-1)!.sessionAsked).toBeNull();
  });

  it("review.session: cold", async () => {
    const head = await openReviewed({}, "review:\n  session: cold\n");
    const [prompt] = await secondPush(head);
    expectStandsAlone(prompt!);
  });

  it("/no-mistakes review --full", async () => {
    const head = await openReviewed();
    await secondPush(head);
    const calls = fx.app.agentCalls().length;
    fx.app.scenario([{ role: "reviewer", answer: { summary: "Full look.", findings: [], resolved: [] } }]);
    await fx.comment("/no-mistakes review --full", WRITER);
    const prompts = fx.app.agentCalls().slice(calls);
    expect(prompts.length).toBeGreaterThan(0);
    expectStandsAlone(prompts.at(-1)!.prompt);
    expect(prompts.at(-1)!.sessionAsked).toBeNull();
  });

  it("/no-mistakes reset reviewer, then a push", async () => {
    const head = await openReviewed();
    await fx.comment("/no-mistakes reset reviewer", WRITER);
    expect(fx.replies().at(-1)).toContain("Forgot the reviewer's session");
    const [prompt] = await secondPush(head);
    expectStandsAlone(prompt!);
  });
});

describe("a resumed reviewer session is told only what changed", () => {
  it("the new push's diff and the ledger's changes; not the rules, the answer format, the PR's body or the open findings again", async () => {
    const head = await openReviewed();
    const [prompt] = await secondPush(head);
    expect(fx.app.agentCalls().at(-1)!.resumed).toBe(true);
    expect(prompt).toContain("+second line 1");
    expect(prompt).not.toContain("+first line 1");
    // NM-1 got its id after the first turn: the session learns it, in one line
    expect(prompt).toContain("NM-1 open warning src/app.ts:11: Loop bound reads oddly");
    expect(prompt).not.toContain("The loop runs n+1 times.");
    expect(prompt).not.toContain("Rules:");
    expect(prompt).not.toContain('"end_line"');
    expect(prompt).not.toContain("<untrusted-pr-content>");
    expect(prompt).toContain('reply with only the JSON object {"summary","findings","resolved"}');

    // a third push with nothing new in the ledger and the title edited: no ledger block, the PR block again
    const calls = fx.app.agentCalls().length;
    const third = fx.push({ "src/third.ts": numbered("third", 3) }, "third");
    fx.app.scenario([{ role: "reviewer", answer: { summary: "Third look.", findings: [], resolved: [] } }]);
    await fx.pullRequest("synchronize", third, { before: head, title: "A new title" } as never);
    const next = fx.app.agentCalls()[calls]!.prompt;
    expect(next).not.toContain("<ledger-changes>");
    expect(next).toContain("The pull request's title, description or base was edited:");
    expect(next).toContain("A new title");
    // the task and the later-review rule were told at push 2: push 3 gets them in a line each
    expect(prompt).toContain('then add "broken_by":{"path":"…","line":N}');
    expect(next).not.toContain('then add "broken_by":{"path":"…","line":N}');
    expect(next).toContain("As before: new findings only on changed lines");
    expect(next).not.toContain("You review pull request #");
    expect(next).toMatch(
      /^New commits were pushed since your last turn; your working directory is now at [0-9a-f]{40}\./,
    );
  });
});
