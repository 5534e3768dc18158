import { describe, expect, it } from "vitest";
import { listFindingEvents } from "../../src/db/finding-events.js";
import { listRefusals } from "../../src/db/refusals.js";
import { loadRunAgentSession } from "../../src/db/run-agent-sessions.js";
import { listTurns } from "../../src/db/turns.js";
import { bugAndNitReview, FlowFixture, LOOP_BUG_APP, numbered, PR_APP } from "../helpers/flow-fixture.js";
import { useFlowDatabase } from "../helpers/use-flow-database.js";

let fx: FlowFixture;
const database = useFlowDatabase(() => fx);

const WRITER = { login: "maintainer" };
const READER = { login: "visitor" };
const FIXED_APP = numbered("app", 30, { 10: "changed 10", 11: "for (i = 0; i < n; i++)", 12: "changed 12" });

const REVIEW = bugAndNitReview("auto-fix");

/** Opens the PR and lets the first review land: NM-1 (error) and NM-2 (info). */
async function openReviewed(standIn: Parameters<typeof FlowFixture.start>[1] = {}): Promise<string> {
  fx = await FlowFixture.start(database.handle, {
    permissions: { maintainer: "write", visitor: "read", boss: "maintain" },
    ...standIn,
  });
  return fx.openReviewed(REVIEW);
}

/** The run's finding history: [finding, kind, actor, detail], by finding and oldest first. */
async function history(): Promise<[number, string, string | null, string | null][]> {
  return (await listFindingEvents(database.handle.db, (await fx.run()).id)).map((e) => [
    e.findingNumber,
    e.kind,
    e.actor,
    e.detail,
  ]);
}

/** What the app refused in this fixture's PR. */
async function refusals() {
  return (await listRefusals(database.handle.db)).filter((r) => r.prNumber === fx.pr);
}

/** Waits until the run's fixer turn is running (it has its `turns` row). */
async function fixerTurnStarted(runId: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((await listTurns(database.handle.db, runId)).every((t) => t.role !== "fixer")) {
    if (Date.now() > deadline) throw new Error("the fixer turn never started");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("/no-mistakes fix", () => {
  it("by a writer: the bot commits on the PR branch, replies; a fresh verifier confirms the fix, which resolves it; the re-review resumes the reviewer", async () => {
    const head = await openReviewed();
    fx.app.scenario([
      {
        role: "fixer",
        edits: [{ path: "src/app.ts", content: FIXED_APP }],
        answer: { summary: "Used < for the bound.", fixed: ["NM-1"] },
      },
      {
        role: "verifier",
        answer: {
          verdicts: [{ id: "NM-1", fixed: true, reason: "The bound is now `<`, so the loop stops at n - 1." }],
        },
      },
      { role: "reviewer", match: "NM-1", answer: { summary: "Fix verified.", findings: [], resolved: [] } },
    ]);

    await fx.comment("Looks off.\n/no-mistakes fix -- keep it small", WRITER);

    // a commit by the bot, fast-forward on the PR's branch
    const pushed = fx.remote.remoteSha("refs/heads/feature");
    expect(pushed).not.toBe(head);
    expect(fx.remote.git(fx.remote.bare, "rev-parse", `${pushed}^`).trim()).toBe(head);
    const author = fx.remote.git(fx.remote.bare, "log", "-1", "--format=%an <%ae>%n%s", pushed);
    expect(author).toContain("no-mistakes[bot] <4242+no-mistakes[bot]@users.noreply.github.com>");
    expect(author).toContain("fix(no-mistakes): NM-1 — Off-by-one in loop bound");
    expect(fx.remote.git(fx.remote.bare, "show", `${pushed}:src/app.ts`)).toContain("for (i = 0; i < n; i++)");
    // the fixer saw the chosen findings (errors and warnings by default) and the note
    const fixerCall = fx.app.agentCalls().find((c) => c.role === "fixer")!;
    expect(fixerCall.prompt).toContain("NM-1");
    expect(fixerCall.prompt).not.toContain("NM-2");
    expect(fixerCall.prompt).toContain("keep it small");
    // 👀, a reply with the commit
    expect(fx.github.reactions.map((r) => r.content)).toEqual(["eyes"]);
    expect(fx.replies().at(-1)).toMatch(new RegExp(`@maintainer Pushed \`${pushed.slice(0, 7)}\` fixing NM-1\\.`));
    // the verifier: a fresh session, read-only, given the claimed finding and the fix's diff; its ruling resolves NM-1
    const verifierCall = fx.app.agentCalls().find((c) => c.role === "verifier")!;
    expect(verifierCall.sessionAsked).toBeNull(); // never resumed
    expect(verifierCall.prompt).toContain("NM-1");
    expect(verifierCall.prompt).toContain("+for (i = 0; i < n; i++)");
    expect((await fx.findings()).map((f) => [f.number, f.status, f.verification])).toEqual([
      [1, "fixed", "confirmed"],
      [2, "open", null],
    ]);
    const nm1 = fx.findingComment("NM-1");
    expect(fx.github.sent("POST", `/comments/${nm1.id}/replies`).map((r) => r.body.body)).toEqual([
      `Resolved in ${pushed.slice(0, 7)}. Confirmed by an independent check: The bound is now \`<\`, so the loop stops at n - 1.`,
    ]);
    const turns = await fx.turns();
    expect(turns.map((t) => [t.role, t.sessionMode])).toEqual([
      ["reviewer", "started"],
      ["fixer", "started"],
      ["verifier", "started"],
    ]);
    // the history: raised and posted by the reviewer's turn, the fixer's commit, the verifier's ruling in its turn
    expect(await history()).toEqual([
      [1, "raised", "reviewer", null],
      [1, "posted", "reviewer", null],
      [1, "fix-pushed", "fixer", pushed],
      [1, "confirmed", "verifier", "The bound is now `<`, so the loop stops at n - 1."],
      [2, "raised", "reviewer", null],
      [2, "posted", "reviewer", null],
    ]);
    // each at its turn, and where on the PR's GitHub page it happened: the inline comment, the fix's commit
    const events = await listFindingEvents(database.handle.db, (await fx.run()).id, 1);
    expect(events.map((e) => [e.turnId, e.url])).toEqual([
      [turns[0]!.id, null],
      [turns[0]!.id, `#discussion_r${fx.findingComment("NM-1").id}`],
      [turns[1]!.id, `/commits/${pushed}`],
      [turns[2]!.id, null],
    ]);

    // GitHub sends synchronize for the bot's push: reviewed again in the resumed reviewer session
    await fx.pullRequest("synchronize", pushed, { sender: { login: "no-mistakes[bot]", type: "Bot" } });
    const calls = fx.app.agentCalls();
    const reviews = calls.filter((c) => c.role === "reviewer");
    expect(reviews).toHaveLength(2);
    expect(reviews[1]).toMatchObject({ sessionAsked: reviews[0]!.sessionReturned, resumed: true });
    expect(reviews[1]!.prompt).toContain("for (i = 0; i < n; i++)");
    expect(reviews[1]!.prompt).toContain(`Commits ${pushed.slice(0, 12)} were made by the no-mistakes fixer`);
    expect((await fx.findings()).map((f) => f.status)).toEqual(["fixed", "open"]);
  });

  it("a fix the verifier refutes stays open with the reason in its thread; the reviewer saying `resolved` without a later change does not close it", async () => {
    await openReviewed();
    fx.app.scenario([
      {
        role: "fixer",
        edits: [
          {
            path: "src/app.ts",
            content: FIXED_APP.replace("for (i = 0; i < n; i++)", "for (i = 0; i <= n; i++) // fixed"),
          },
        ],
        answer: { fixed: ["NM-1"] },
      },
      {
        role: "verifier",
        answer: {
          verdicts: [{ id: "NM-1", fixed: false, reason: "The bound is still `<=`; only a comment was added." }],
        },
      },
      { role: "reviewer", match: "NM-1", answer: { summary: "All fixed.", findings: [], resolved: ["NM-1"] } },
    ]);
    await fx.comment("/no-mistakes fix", WRITER);
    const pushed = fx.remote.remoteSha("refs/heads/feature");
    expect((await fx.findings()).map((f) => [f.number, f.status, f.verification])).toEqual([
      [1, "open", "refuted"],
      [2, "open", null],
    ]);
    const nm1 = fx.findingComment("NM-1");
    expect(fx.github.sent("POST", `/comments/${nm1.id}/replies`).map((r) => r.body.body)).toEqual([
      `The fix in ${pushed.slice(0, 7)} does not resolve NM-1, by an independent check: The bound is still \`<=\`; only a comment was added.`,
    ]);
    expect(fx.github.resolvedThreads).toEqual([]);

    // the re-review of the bot's push: the reviewer calls it resolved, but nothing changed after the refuted fix
    await fx.pullRequest("synchronize", pushed, { sender: { login: "no-mistakes[bot]", type: "Bot" } });
    expect((await fx.findings()).map((f) => [f.number, f.status, f.claimedResolvedSha])).toEqual([
      [1, "open", pushed],
      [2, "open", null],
    ]);
    expect(fx.summary()).toContain("a fix was refuted by the verifier");
    // the refutation is NM-1's last event: the reviewer's claim without evidence is none
    expect((await history()).filter(([n]) => n === 1)).toEqual([
      [1, "raised", "reviewer", null],
      [1, "posted", "reviewer", null],
      [1, "fix-pushed", "fixer", pushed],
      [1, "refuted", "verifier", "The bound is still `<=`; only a comment was added."],
    ]);
  });

  it("when the verifier cannot rule (unreadable answer), the fix stays `fix pushed`, unverified, and keeps counting", async () => {
    await openReviewed();
    fx.app.scenario([
      { role: "fixer", edits: [{ path: "src/app.ts", content: FIXED_APP }], answer: { fixed: ["NM-1"] } },
      { role: "verifier", text: "I think it is probably fine." },
    ]);
    await fx.comment("/no-mistakes fix", WRITER);
    expect((await fx.findings()).map((f) => [f.number, f.status, f.verification])).toEqual([
      [1, "fix-pushed", null],
      [2, "open", null],
    ]);
    expect(fx.summary()).toContain("fix pushed — not yet confirmed by the verifier");
  });

  it("refuses a fix that retargets a symbolic link out of the repository: nothing pushed, a reply names the link", async () => {
    fx = await FlowFixture.start(database.handle, { permissions: { maintainer: "write" } });
    const head = await fx.open(
      { "src/app.ts": LOOP_BUG_APP, "docs/current": { symlink: "v1.md" }, "docs/v1.md": "v1\n" },
      [REVIEW],
      "first",
    );
    // The workspace holds the link as a small file with its target (core.symlinks=false), so the fixer can "edit" it:
    // an obedient fixer rewrites it to point at the app's secrets.
    fx.app.scenario([
      {
        role: "fixer",
        edits: [
          { path: "src/app.ts", content: FIXED_APP },
          { path: "docs/current", content: "../../../../../app/.env" },
        ],
        answer: { fixed: ["NM-1"] },
      },
    ]);

    await fx.comment("/no-mistakes fix", WRITER);

    expect(fx.remote.remoteSha("refs/heads/feature")).toBe(head);
    const reply = fx.replies().at(-1)!;
    expect(reply).toContain(
      "The fix was not pushed: it adds or retargets a symbolic link that points outside the repository",
    );
    expect(reply).toContain("`docs/current` → `../../../../../app/.env`");
    expect((await fx.findings()).map((f) => f.status)).toEqual(["open", "open"]);
  });

  it("a second fix resumes the fixer's session, never the reviewer's", async () => {
    await openReviewed();
    fx.app.scenario([
      {
        role: "fixer",
        match: "NM-1",
        times: 1,
        edits: [{ path: "src/app.ts", content: FIXED_APP }],
        answer: { fixed: ["NM-1"] },
      },
      {
        role: "fixer",
        match: "NM-2",
        edits: [{ path: "src/app.ts", content: FIXED_APP.replace("changed 12", "renamed 12") }],
        answer: { fixed: ["NM-2"] },
      },
    ]);

    await fx.comment("/no-mistakes fix NM-1", WRITER);
    await fx.comment("/no-mistakes fix NM-2", { login: "boss" });

    const calls = fx.app.agentCalls();
    const reviewer = calls.find((c) => c.role === "reviewer")!;
    const fixes = calls.filter((c) => c.role === "fixer");
    expect(fixes).toHaveLength(2);
    expect(fixes[0]!.sessionAsked).toBeNull();
    expect(fixes[1]).toMatchObject({ sessionAsked: fixes[0]!.sessionReturned, resumed: true, turnsInSession: 2 });
    expect(fixes.map((f) => f.sessionReturned)).not.toContain(reviewer.sessionReturned);
    expect((await loadRunAgentSession(database.handle.db, (await fx.run()).id, "reviewer"))?.sessionId).toBe(
      reviewer.sessionReturned,
    );
    expect(fx.remote.git(fx.remote.bare, "log", "--format=%s", "-2", "refs/heads/feature").trim().split("\n")).toEqual([
      "fix(no-mistakes): NM-2 — Naming nit",
      "fix(no-mistakes): NM-1 — Off-by-one in loop bound",
    ]);
  });

  it("by a reader is refused with a reply, and nothing runs", async () => {
    const head = await openReviewed();
    await fx.comment("/no-mistakes fix", READER);
    expect(fx.replies().at(-1)).toBe(
      "@visitor `/no-mistakes fix` needs write access to this repository (yours: read). Anyone can use `status`, `config` and `help`.",
    );
    expect(fx.app.agentCalls().filter((c) => c.role === "fixer")).toHaveLength(0);
    expect(fx.github.reactions).toHaveLength(0);
    expect(fx.remote.remoteSha("refs/heads/feature")).toBe(head);
    const pending = await database.handle.executeSql("select count(*)::int as n from run_commands where run_id = $1", [
      (await fx.run()).id,
    ]);
    expect(pending.rows[0]!.n).toBe(0);
    expect((await refusals()).map((r) => [r.kind, r.repositoryFullName, r.prNumber, r.actor, r.reason])).toEqual([
      [
        "unauthorized_command",
        (await fx.run()).repositoryFullName,
        (await fx.run()).prNumber,
        "visitor",
        "fix: needs write access (permission read)",
      ],
    ]);
  });

  it("when the branch moved under the fixer, the refused push is reported with the patch", async () => {
    const head = await openReviewed();
    fx.app.scenario([
      {
        role: "fixer",
        delayMs: 4000,
        edits: [{ path: "src/app.ts", content: FIXED_APP }],
        answer: { fixed: ["NM-1"] },
      },
    ]);
    await fx.app.receive("issue_comment", fx.commentPayload("/no-mistakes fix", WRITER));
    // once the fixer's turn is running, someone pushes to the branch
    const id = (await fx.run()).id;
    await fixerTurnStarted(id);
    fx.remote.commit({ "README.md": "# widgets, moved\n" }, "concurrent");
    fx.remote.publish("feature");
    await fx.app.idle();

    const reply = fx.replies().at(-1)!;
    expect(reply).toContain("The fix was made but not pushed to `feature`");
    expect(reply).toContain("the branch moved or is protected");
    expect(reply).toContain("```diff");
    expect(reply).toContain("+for (i = 0; i < n; i++)");
    expect(fx.remote.remoteSha("refs/heads/feature")).not.toBe(head);
    expect(fx.remote.git(fx.remote.bare, "log", "-1", "--format=%s", "refs/heads/feature").trim()).toBe("concurrent");
    expect((await fx.findings())[0]!.status).toBe("open");
    const [refusal, ...more] = await refusals();
    expect(more).toEqual([]);
    expect(refusal).toMatchObject({
      kind: "push_rejected",
      repositoryFullName: "octo-org/widgets",
      actor: "fixer",
      prNumber: (await fx.run()).prNumber,
    });
    expect(refusal!.reason).toMatch(
      /^fix [0-9a-f]{7} not pushed: the branch moved or is protected \(.*\)\. \(asked by maintainer\)$/,
    );
  });

  it("on a fork without maintainer edits: a reply, no agent turn, no push", async () => {
    fx = await FlowFixture.start(database.handle, { permissions: { maintainer: "write" } });
    fx.pull = { headRepo: { fullName: "forker/widgets", cloneUrl: fx.remote.bare }, maintainerCanModify: false };
    const head = await fx.open({ "src/app.ts": LOOP_BUG_APP }, [REVIEW]);

    await fx.comment("/no-mistakes fix", WRITER);

    expect(fx.replies().at(-1)).toContain("comes from a fork that does not allow edits by maintainers");
    expect(fx.app.agentCalls().filter((c) => c.role === "fixer")).toHaveLength(0);
    expect(fx.remote.remoteSha("refs/heads/feature")).toBe(head);
    expect((await refusals()).map((r) => [r.kind, r.repositoryFullName, r.actor])).toEqual([
      ["push_target", "octo-org/widgets", "maintainer"],
    ]);
    expect((await refusals())[0]!.reason).toMatch(
      /^no fix attempted: this pull request comes from a fork that does not allow edits by maintainers/,
    );
  });

  it("a deleted fork (head.repo null) opened from the fork's `main`, with fix.auto: never pushed to the base repository", async () => {
    fx = await FlowFixture.start(database.handle, {
      permissions: { maintainer: "write" },
      configYaml: "fix:\n  auto: true\n",
    });
    // The fork's branch was called `main`, like the base's; then the fork was deleted.
    fx.pull = { headRepo: null, headRef: "main" };
    fx.remote.checkout("feature", true);
    fx.remote.commit({ "src/app.ts": LOOP_BUG_APP }, "from the fork");
    const head = fx.remote.publish("feature", fx.pr);
    const baseMain = fx.remote.remoteSha("refs/heads/main");
    fx.app.scenario([
      REVIEW,
      { role: "fixer", edits: [{ path: "src/app.ts", content: FIXED_APP }], answer: { fixed: ["NM-1"] } },
    ]);

    await fx.pullRequest("ready_for_review", head);

    expect(fx.github.reviews).toHaveLength(1);
    expect(fx.remote.remoteSha("refs/heads/main")).toBe(baseMain);
    expect(fx.remote.remoteSha("refs/heads/feature")).toBe(head);
    expect(fx.app.agentCalls().filter((c) => c.role === "fixer")).toHaveLength(0);
    expect(fx.replies().at(-1)).toContain(
      "the repository this pull request comes from no longer exists (the fork was deleted)",
    );
  });

  it("a fix that changes workflow files is not pushed, with its own reason and the patch", async () => {
    const head = await openReviewed();
    fx.app.scenario([
      {
        role: "fixer",
        edits: [
          { path: "src/app.ts", content: FIXED_APP },
          { path: ".github/workflows/ci.yml", content: "on: push\n" },
        ],
        answer: { fixed: ["NM-1"] },
      },
    ]);
    await fx.comment("/no-mistakes fix", WRITER);
    const reply = fx.replies().at(-1)!;
    expect(reply).toContain(
      "The fix was made but not pushed to `feature`: it changes workflow files (`.github/workflows/ci.yml`)",
    );
    expect(reply).toContain("`workflows` permission");
    expect(reply).toContain("+on: push");
    expect(fx.remote.remoteSha("refs/heads/feature")).toBe(head);
    const [refusal, ...more] = await refusals();
    expect(more).toEqual([]);
    expect(refusal).toMatchObject({ kind: "workflow_files", repositoryFullName: "octo-org/widgets", actor: "fixer" });
    expect(refusal!.reason).toMatch(
      /^fix [0-9a-f]{7} not pushed: it changes workflow files \(\.github\/workflows\/ci\.yml\), which needs the workflows permission the App does not ask for; the reply carries the patch \(asked by maintainer\)$/,
    );
  });

  it("when GitHub moves the PR's head to another repository while the fixer works: not pushed anywhere, the patch in the reply", async () => {
    const head = await openReviewed();
    const baseMain = fx.remote.remoteSha("refs/heads/main");
    fx.app.scenario([
      {
        role: "fixer",
        delayMs: 3000,
        edits: [{ path: "src/app.ts", content: FIXED_APP }],
        answer: { fixed: ["NM-1"] },
      },
    ]);
    await fx.app.receive("issue_comment", fx.commentPayload("/no-mistakes fix", WRITER));
    const id = (await fx.run()).id;
    await fixerTurnStarted(id);
    fx.pull = { headRepo: { fullName: "someone/else", cloneUrl: fx.remote.bare }, maintainerCanModify: true };
    await fx.app.idle();

    const reply = fx.replies().at(-1)!;
    expect(reply).toContain(
      "The fix was made but not pushed to `feature`: the pull request's head changed while the fixer worked",
    );
    expect(reply).toContain("+for (i = 0; i < n; i++)");
    expect(fx.remote.remoteSha("refs/heads/feature")).toBe(head);
    expect(fx.remote.remoteSha("refs/heads/main")).toBe(baseMain);
    const [refusal, ...more] = await refusals();
    expect(more).toEqual([]);
    expect(refusal).toMatchObject({ kind: "head_moved", repositoryFullName: "octo-org/widgets", actor: "fixer" });
    expect(refusal!.reason).toMatch(
      /^fix [0-9a-f]{7} not pushed: the pull request's head changed while the fixer worked \(now `someone\/else:feature`\)\./,
    );
  });

  it("stops at fix.max_rounds and at the PR's turn budget, saying so", async () => {
    await openReviewed({ configYaml: "fix:\n  max_rounds: 1\n" });
    fx.app.scenario([
      { role: "fixer", edits: [{ path: "src/app.ts", content: FIXED_APP }], answer: { fixed: ["NM-1"] } },
    ]);
    await fx.comment("/no-mistakes fix NM-1", WRITER);
    await fx.comment("/no-mistakes fix all", WRITER);
    expect(fx.app.agentCalls().filter((c) => c.role === "fixer")).toHaveLength(1);
    expect(fx.replies().at(-1)).toBe(
      "@maintainer No fix was attempted: this PR has used all 1 fix rounds (fix.max_rounds).",
    );
    expect((await refusals()).map((r) => [r.kind, r.repositoryFullName, r.actor, r.reason])).toEqual([
      [
        "budget",
        "octo-org/widgets",
        "maintainer",
        "no fix attempted: this PR has used all 1 fix rounds (fix.max_rounds); raise it in .github/no-mistakes.yml",
      ],
    ]);
    await fx.stop();

    await openReviewed({ configYaml: "limits:\n  max_turns: 1\n" });
    await fx.comment("/no-mistakes fix", WRITER);
    expect(fx.replies().at(-1)).toBe(
      "@maintainer No fix was attempted: this PR has used its budget of 1 agent turns (limits.max_turns).",
    );
    const next = fx.push({ "README.md": "more\n" });
    await fx.pullRequest("synchronize", next);
    expect(fx.app.agentCalls()).toHaveLength(1);
    expect(fx.replies().at(-1)).toContain(
      "no-mistakes stopped reviewing: this PR has used its budget of 1 agent turns",
    );
    expect((await refusals()).map((r) => [r.kind, r.repositoryFullName, r.actor, r.reason])).toEqual([
      [
        "budget",
        "octo-org/widgets",
        "reviewer",
        `no review of ${next.slice(0, 7)}: this PR has used its budget of 1 agent turns (limits.max_turns); raise it in .github/no-mistakes.yml`,
      ],
      [
        "budget",
        "octo-org/widgets",
        "maintainer",
        "no fix attempted: this PR has used its budget of 1 agent turns (limits.max_turns); raise it in .github/no-mistakes.yml",
      ],
    ]); // newest first
  });

  it("with nothing to change: a reply, no empty commit", async () => {
    const head = await openReviewed();
    fx.app.scenario([
      {
        role: "fixer",
        answer: {
          summary: "The loop is already correct.",
          fixed: [],
          declined: [{ id: "NM-1", reason: "n is exclusive here" }],
        },
      },
    ]);
    await fx.comment("/no-mistakes fix", WRITER);
    expect(fx.remote.remoteSha("refs/heads/feature")).toBe(head);
    expect(fx.replies().at(-1)).toContain("found nothing to change");
    expect(fx.replies().at(-1)).toContain("NM-1: n is exclusive here");
  });
});

describe("fix.auto", () => {
  it("runs the fixer on auto-fix findings after a review, without a command, within fix.max_rounds", async () => {
    fx = await FlowFixture.start(database.handle, { configYaml: "fix:\n  auto: true\n  max_rounds: 1\n" });
    const head = await fx.open({ "src/app.ts": PR_APP }, [
      REVIEW,
      { role: "fixer", times: 1, edits: [{ path: "src/app.ts", content: FIXED_APP }], answer: { fixed: ["NM-1"] } },
      {
        role: "reviewer",
        answer: {
          summary: "Another one.",
          findings: [
            { path: "src/app.ts", line: 10, severity: "error", action: "auto-fix", title: "Another bug", body: "x" },
          ],
          resolved: ["NM-1"],
        },
      },
    ]);

    const pushed = fx.remote.remoteSha("refs/heads/feature");
    expect(pushed).not.toBe(head);
    expect(fx.app.agentCalls().map((c) => c.role)).toEqual(["reviewer", "fixer"]);
    expect(fx.github.reactions).toHaveLength(0);
    expect(fx.replies().at(-1)).toMatch(/^Pushed `[0-9a-f]{7}` fixing NM-1\./);

    // the push is reviewed; a new auto-fix finding does not start a second round past the bound
    await fx.pullRequest("synchronize", pushed, { sender: { login: "no-mistakes[bot]", type: "Bot" } });
    expect(fx.app.agentCalls().map((c) => c.role)).toEqual(["reviewer", "fixer", "reviewer"]);
    expect(fx.remote.remoteSha("refs/heads/feature")).toBe(pushed);
  });
});

describe("other commands", () => {
  it("unknown command → the command list; help → the same list", async () => {
    await openReviewed();
    await fx.comment("/no-mistakes frobnicate", READER);
    expect(fx.replies().at(-1)).toContain("@visitor I don't know `/no-mistakes frobnicate`. Commands");
    expect(fx.replies().at(-1)).toContain("`/no-mistakes fix [all \\| NM-1 NM-4 …] [-- note]`");
    await fx.comment("/no-mistakes help", READER);
    expect(fx.replies().at(-1)).toMatch(/^@visitor Commands \(comment on the pull request\):/);
  });

  it("status answers anyone with findings, sessions and spend", async () => {
    await openReviewed();
    await fx.comment("/no-mistakes status", READER);
    const status = fx.replies().at(-1)!;
    expect(status).toContain("**Open findings (2)**");
    expect(status).toContain("NM-1 `src/app.ts:11` Off-by-one in loop bound");
    expect(status).toMatch(
      /reviewer: fake session `[0-9a-f-]{12}` \([\d,]+ tokens\) · last turn started \(succeeded\)/,
    );
    expect(status).toContain("fixer: none stored");
    expect(status).toContain("fix rounds 0/3 · turns 1/30 · spend $0.00/$5.00"); // bounded by default
    // the repository's scorecard (this file's earlier tests reviewed PRs of the same repository): this PR's
    // two findings are among those posted
    const scorecard =
      /^\*\*Scorecard\*\* · this repository, last 12 weeks: (\d+)% addressed \((\d+) of (\d+) posted findings fixed\) · \d+% noise \(\d+ dismissed or withdrawn\)$/.exec(
        status.split("\n").at(-1)!,
      );
    expect(scorecard).not.toBeNull();
    const [, percent, fixed, posted] = scorecard!.map(Number);
    expect(posted).toBeGreaterThanOrEqual(2);
    expect(percent).toBe(Math.round((100 * fixed!) / posted!));
  });

  it("dismiss → the finding is never raised again by a later review", async () => {
    await openReviewed();
    const dismissal = fx.commentPayload("/no-mistakes dismiss NM-2 naming is fine", WRITER);
    await fx.app.receive("issue_comment", dismissal);
    await fx.idle();
    expect(fx.replies().at(-1)).toBe("@maintainer Dismissed NM-2; it will not be raised again in this pull request.");
    const findings = await fx.findings();
    expect(findings[1]).toMatchObject({ status: "dismissed", dismissReason: "naming is fine" });

    fx.app.scenario([
      {
        role: "reviewer",
        answer: {
          summary: "Same nit.",
          findings: [
            {
              path: "src/app.ts",
              line: 13,
              severity: "info",
              action: "no-op",
              title: "Naming nit",
              body: "Consider a better name.",
            },
          ],
        },
      },
    ]);
    const next = fx.push({ "README.md": "more\n" });
    await fx.pullRequest("synchronize", next);
    const second = fx.github.reviews[1]!;
    expect(second.comments).toHaveLength(0);
    expect(second.body).not.toContain("Naming nit");
    expect(await fx.findings()).toHaveLength(2);
    // dismissed by the maintainer with the reason; the later review's report of it changes nothing
    expect((await history()).filter(([n]) => n === 2)).toEqual([
      [2, "raised", "reviewer", null],
      [2, "posted", "reviewer", null],
      [2, "dismissed", "maintainer", "naming is fine"],
    ]);
    // the dismissal links to the command's comment; NM-2's posting to its inline comment
    const events = await listFindingEvents(database.handle.db, (await fx.run()).id, 2);
    expect(events.map((e) => e.url)).toEqual([
      null,
      `#discussion_r${fx.findingComment("NM-2").id}`,
      `#issuecomment-${dismissal.comment.id}`,
    ]);
  });

  it("dismissing the blocking finding turns the head's check green and the summary's state follows", async () => {
    const head = await openReviewed();
    const check = () => [...fx.github.checkRuns.values()].find((c) => c.head_sha === head)!;
    expect(check()).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(fx.summary()).toContain("**State: open findings**");

    await fx.comment("/no-mistakes dismiss NM-1 the bound is intended", WRITER);

    expect(check()).toMatchObject({ status: "completed", conclusion: "success" });
    expect(fx.summary()).not.toContain("**State: open findings**");
    expect(fx.summary()).toMatch(/\*\*State: (converged|converging)\*\*/);
  });

  it("reset → the next reviewer turn starts a new session", async () => {
    await openReviewed();
    await fx.comment("/no-mistakes reset reviewer", WRITER);
    expect(fx.replies().at(-1)).toBe("@maintainer Forgot the reviewer's session; the next turn starts fresh.");
    fx.app.scenario([{ role: "reviewer", answer: { summary: "fresh", findings: [] } }]);
    const next = fx.push({ "README.md": "more\n" });
    await fx.pullRequest("synchronize", next);
    const reviews = fx.app.agentCalls().filter((c) => c.role === "reviewer");
    expect(reviews[1]!.sessionAsked).toBeNull();
    expect((await fx.turns()).at(-1)!.sessionMode).toBe("started");
  });

  it("pause stops automatic reviews; review still works; resume turns them back on", async () => {
    await openReviewed();
    await fx.comment("/no-mistakes pause", WRITER);
    fx.app.scenario([{ role: "reviewer", answer: { summary: "asked", findings: [] } }]);
    const next = fx.push({ "README.md": "paused push\n" });
    await fx.pullRequest("synchronize", next);
    expect(fx.app.agentCalls()).toHaveLength(1);
    // the paused push says why it was not reviewed, on its own check run, which still fails on NM-1
    const skipped = fx.github.sent("POST", "/check-runs").filter((r) => r.body.head_sha === next);
    expect(skipped).toHaveLength(1);
    expect(skipped[0]!.body).toMatchObject({
      conclusion: "failure",
      output: { title: "Review skipped · 1 finding still open" },
    });
    expect(skipped[0]!.body.output.summary).toContain("automatic reviews are paused on this PR");

    await fx.comment("/no-mistakes review", WRITER);
    expect(fx.app.agentCalls()).toHaveLength(2);
    await fx.comment("/no-mistakes resume", WRITER);
    expect((await fx.run()).state).toBe("open");
  });

  it("review --full reviews the whole PR in a fresh reviewer session", async () => {
    await openReviewed();
    fx.app.scenario([{ role: "reviewer", answer: { summary: "full again", findings: [] } }]);
    await fx.comment("/no-mistakes review --full", WRITER);
    const reviews = fx.app.agentCalls().filter((c) => c.role === "reviewer");
    expect(reviews).toHaveLength(2);
    expect(reviews[1]!.sessionAsked).toBeNull();
    expect(reviews[1]!.prompt).toContain("for (i = 0; i <= n; i++)");
  });

  it("ignores bots (this app included), quoted commands and commands in code", async () => {
    await openReviewed();
    await fx.comment("/no-mistakes fix", { login: "no-mistakes[bot]", type: "Bot" });
    await fx.comment("> /no-mistakes fix\nquoting someone", WRITER);
    await fx.comment("```\n/no-mistakes fix\n```", WRITER);
    expect(fx.replies()).toHaveLength(0);
    expect(fx.github.reactions).toHaveLength(0);
    expect(fx.app.agentCalls()).toHaveLength(1);
  });
});
