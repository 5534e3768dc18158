import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AgentError, type AgentErrorKind } from "../../../src/agents/agent-error.js";
import { FakeAgent } from "../../../src/agents/fake/fake.js";
import type { AgentRunOptions, Role } from "../../../src/agents/types.js";
import { ConfigError } from "../../../src/config/config-error.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";

afterAll(removeTempDirs);

/** A fresh home, workspace and log; `agent()` builds a FakeAgent on them (call again to "restart"). */
function setup(steps?: unknown[], root = tempDir()) {
  const scenarioPath = steps === undefined ? undefined : join(root, "scenario.json");
  if (scenarioPath) writeFileSync(scenarioPath, JSON.stringify({ steps }));
  const home = join(root, "home");
  const cwd = join(root, "workspace");
  const logPath = join(root, "logs", "fake-agent.log");
  mkdirSync(cwd, { recursive: true });
  const agent = () => new FakeAgent({ scenarioPath, home, logPath });
  const call = (role: Role, prompt: string, extra: Partial<AgentRunOptions> = {}) => ({
    role,
    prompt,
    cwd,
    timeoutMs: 10_000,
    ...extra,
  });
  const log = () =>
    existsSync(logPath)
      ? readFileSync(logPath, "utf8")
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l) as Record<string, unknown>)
      : [];
  return { root, home, cwd, agent, call, log };
}

/** The AgentError a call fails with; fails the test if the call succeeds. */
async function failure(promise: Promise<unknown>): Promise<AgentError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AgentError);
  return error as AgentError;
}

async function kindOf(promise: Promise<unknown>): Promise<AgentErrorKind> {
  return (await failure(promise)).kind;
}

describe("FakeAgent without a scenario", () => {
  it("has the reviewer find nothing, as JSON", async () => {
    const { agent, call } = setup();
    const result = await agent().run(call("reviewer", "review this"));
    expect(result.json).toEqual({ summary: expect.any(String), findings: [], resolved: [] });
    expect(JSON.parse(result.text)).toEqual(result.json);
    expect(result.resumed).toBe(false);
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("has the fixer change nothing, in words", async () => {
    const { agent, call } = setup();
    const result = await agent().run(call("fixer", "fix this"));
    expect(result.text).toBe("The fake agent changed nothing.");
    expect(result.json).toBeUndefined();
  });

  it("reports usage from the prompt and answer lengths", async () => {
    const { agent, call } = setup();
    const result = await agent().run(call("fixer", "x".repeat(40)));
    expect(result.usage).toEqual({ tokensIn: 10, tokensOut: Math.ceil(result.text.length / 4), costUsd: 0 });
  });
});

describe("FakeAgent answers", () => {
  it("returns an `answer` as JSON text and as parsed json", async () => {
    const answer = { summary: "one problem", findings: [{ file: "a.ts", line: 3 }], resolved: [] };
    const { agent, call } = setup([{ answer }]);
    const result = await agent().run(call("reviewer", "review"));
    expect(result.text).toBe(JSON.stringify(answer));
    expect(result.json).toEqual(answer);
  });

  it("returns `text` as the raw final message, with any JSON in it parsed", async () => {
    const { agent, call } = setup([{ text: 'Done.\n```json\n{"fixed": 2}\n```' }]);
    const result = await agent().run(call("fixer", "fix"));
    expect(result.text).toBe('Done.\n```json\n{"fixed": 2}\n```');
    expect(result.json).toEqual({ fixed: 2 });
  });

  it("answers with an empty message when a step has neither answer nor text", async () => {
    const { agent, call } = setup([{ role: "fixer" }]);
    const result = await agent().run(call("fixer", "fix"));
    expect(result.text).toBe("");
    expect(result.json).toBeUndefined();
  });

  it.each<[Role, string, string]>([
    ["reviewer", "please review the PR", "reviewer step"],
    ["fixer", "please fix finding 1", "fixer step"],
    ["fixer", "please fix finding 2 (urgent)", "urgent step"],
    ["reviewer", "please review again (urgent)", "urgent step"],
  ])("picks the first step matching role and prompt: %s %j → %s", async (role, prompt, expected) => {
    const { agent, call } = setup([
      { match: "urgent", text: "urgent step" },
      { role: "reviewer", text: "reviewer step" },
      { role: "fixer", text: "fixer step" },
    ]);
    expect((await agent().run(call(role, prompt))).text).toBe(expected);
  });

  it("fails when no step matches", async () => {
    const { agent, call } = setup([{ role: "reviewer", text: "r" }]);
    const error = await failure(agent().run(call("fixer", "fix")));
    expect(error.kind).toBe("other");
    expect(error.message).toMatch(/no scenario step matches this fixer prompt/);
  });

  it("uses a `times` step only that often, then moves to the next one", async () => {
    const { agent, call } = setup([{ times: 2, text: "first two" }, { text: "after" }]);
    const fake = agent();
    const texts = [];
    for (let i = 0; i < 4; i++) texts.push((await fake.run(call("reviewer", "review"))).text);
    expect(texts).toEqual(["first two", "first two", "after", "after"]);
  });

  it("remembers `times` uses across a restart with the same home", async () => {
    const { agent, call } = setup([{ times: 1, text: "once" }, { text: "later" }]);
    expect((await agent().run(call("reviewer", "review"))).text).toBe("once");
    expect((await agent().run(call("reviewer", "review"))).text).toBe("later");
  });

  it("counts `times` separately for each scenario sharing a home", async () => {
    const home = join(tempDir(), "shared-home");
    const scenarioIn = (dir: string) => {
      const path = join(dir, "fixtures", "review-then-fix-with-a-long-name", "scenario.json");
      mkdirSync(join(path, ".."), { recursive: true });
      writeFileSync(path, JSON.stringify({ steps: [{ times: 1, text: `once in ${dir}` }, { text: "later" }] }));
      return path;
    };
    const [a, b] = [tempDir(), tempDir()];
    const run = (dir: string) =>
      new FakeAgent({ scenarioPath: scenarioIn(dir), home }).run({
        role: "reviewer",
        prompt: "p",
        cwd: dir,
        timeoutMs: 1000,
      });

    expect((await run(a)).text).toBe(`once in ${a}`);
    expect((await run(b)).text).toBe(`once in ${b}`);
  });

  it("never lets two calls at once both take a step's last use", async () => {
    const { agent, call } = setup([{ times: 1, text: "once" }, { text: "later" }]);
    const fake = agent();
    const results = await Promise.all([fake.run(call("reviewer", "a")), agent().run(call("reviewer", "b"))]);
    expect(results.map((r) => r.text).sort()).toEqual(["later", "once"]);
  });
});

describe("FakeAgent edits", () => {
  it("writes `edits` into the working directory, creating folders", async () => {
    const { agent, call, cwd } = setup([
      {
        edits: [
          { path: "src/deep/a.ts", content: "export const a = 1;\n" },
          { path: "README.md", content: "hi" },
        ],
      },
    ]);
    await agent().run(call("fixer", "fix"));
    expect(readFileSync(join(cwd, "src/deep/a.ts"), "utf8")).toBe("export const a = 1;\n");
    expect(readFileSync(join(cwd, "README.md"), "utf8")).toBe("hi");
  });

  it("writes a file whose name only starts with two dots", async () => {
    const { agent, call, cwd } = setup([{ edits: [{ path: "..notes.md", content: "n" }] }]);
    await agent().run(call("fixer", "fix"));
    expect(readFileSync(join(cwd, "..notes.md"), "utf8")).toBe("n");
  });

  it.each(["../x", "src/../../x", "/tmp/elsewhere", "."])(
    "refuses an edit at %s, outside the workspace",
    async (path) => {
      const { agent, call, root } = setup([{ edits: [{ path, content: "no" }] }]);
      const error = await failure(agent().run(call("fixer", "fix")));
      expect(error.kind).toBe("other");
      expect(error.message).toContain("refusing to write outside the workspace");
      expect(existsSync(join(root, "x"))).toBe(false);
    },
  );
});

describe("FakeAgent sessions", () => {
  it("resumes a session: same id, resumed, and the turn is counted in it", async () => {
    const { agent, call, log } = setup();
    const first = await agent().run(call("reviewer", "first"));
    const second = await agent().run(call("reviewer", "second", { sessionId: first.sessionId }));
    expect(second.sessionId).toBe(first.sessionId);
    expect(second.resumed).toBe(true);
    expect(log().map((l) => l.turnsInSession)).toEqual([1, 2]);
  });

  it.each(["0b4c2a8e-0000-4000-8000-000000000000", "../../etc/passwd", "has spaces"])(
    "fails to resume an unknown session %s as a dead session",
    async (sessionId) => {
      const { agent, call } = setup();
      const error = await failure(agent().run(call("reviewer", "again", { sessionId })));
      expect(error.kind).toBe("resume-failed");
      expect(error.message).toBe(`No conversation found with session ID: ${sessionId}`);
    },
  );

  it("fails a resume on a `failResume` step, even for a live session", async () => {
    const { agent, call } = setup([{ match: "again", failResume: true, text: "fresh" }, { text: "first" }]);
    const first = await agent().run(call("reviewer", "first"));
    const error = await failure(agent().run(call("reviewer", "again", { sessionId: first.sessionId })));
    expect(error.kind).toBe("resume-failed");
    expect(error.message).toBe(`No conversation found with session ID: ${first.sessionId}`);
  });

  it("answers a `failResume` step normally when the call starts a new session", async () => {
    const { agent, call } = setup([{ failResume: true, text: "fresh" }]);
    const result = await agent().run(call("reviewer", "again"));
    expect(result).toMatchObject({ text: "fresh", resumed: false });
  });

  it("does not spend a `times` use on a failed resume, so the fresh retry gets the same step", async () => {
    const { agent, call } = setup([{ times: 1, failResume: true, text: "fresh" }, { text: "later" }]);
    await kindOf(agent().run(call("reviewer", "p", { sessionId: "gone" })));
    expect((await agent().run(call("reviewer", "p"))).text).toBe("fresh");
  });

  it("never lets the fixer resume the reviewer's session", async () => {
    const { agent, call } = setup();
    const review = await agent().run(call("reviewer", "review"));
    const error = await failure(agent().run(call("fixer", "fix", { sessionId: review.sessionId })));
    expect(error.kind).toBe("other");
    expect(error.message).toMatch(/belongs to the reviewer, not the fixer/);
  });

  it("exports a session and imports it into a new home, where it can be resumed", async () => {
    const { agent, call, home, cwd } = setup();
    const first = await agent().run(call("reviewer", "first"));
    const state = await agent().portable.exportSession(first.sessionId!, cwd);
    expect(state).toBeDefined();

    rmSync(home, { recursive: true, force: true });
    expect(await kindOf(agent().run(call("reviewer", "lost", { sessionId: first.sessionId })))).toBe("resume-failed");

    await agent().portable.importSession(first.sessionId!, cwd, state!);
    const resumed = await agent().run(call("reviewer", "back", { sessionId: first.sessionId }));
    expect(resumed).toMatchObject({ sessionId: first.sessionId, resumed: true });
  });

  it("exports nothing for a session it does not have", async () => {
    const { agent, cwd } = setup();
    expect(await agent().portable.exportSession("0b4c2a8e-0000-4000-8000-000000000000", cwd)).toBeUndefined();
    expect(await agent().portable.exportSession("../not-an-id", cwd)).toBeUndefined();
  });

  it("keeps the local copy when importing a session it already has", async () => {
    const { agent, call, cwd } = setup();
    const first = await agent().run(call("reviewer", "first"));
    await agent().portable.importSession(first.sessionId!, cwd, Buffer.from("not a session"));
    expect(await agent().run(call("reviewer", "again", { sessionId: first.sessionId }))).toMatchObject({
      resumed: true,
    });
  });
});

describe("FakeAgent failures", () => {
  it("fails with `other` when the step exits with a code", async () => {
    const { agent, call } = setup([{ exitCode: 2 }]);
    const error = await failure(agent().run(call("fixer", "fix")));
    expect(error.kind).toBe("other");
    expect(error.message).toBe("fake agent exited with code 2");
  });

  it("times out when the step takes longer than the call may", async () => {
    const { agent, call } = setup([{ delayMs: 3_600_000 }]); // an hour: only the call's limit ends it within the test
    expect(await kindOf(agent().run(call("fixer", "fix", { timeoutMs: 20 })))).toBe("timeout");
  });

  it("answers after a delay shorter than the time limit", async () => {
    const { agent, call } = setup([{ delayMs: 10, text: "slow" }]);
    expect((await agent().run(call("fixer", "fix", { timeoutMs: 5_000 }))).text).toBe("slow");
  });

  it("is cancelled by the abort signal while it works", async () => {
    const { agent, call } = setup([{ delayMs: 5_000 }]);
    const controller = new AbortController();
    const running = agent().run(call("fixer", "fix", { signal: controller.signal }));
    setTimeout(() => controller.abort(), 10);
    expect(await kindOf(running)).toBe("cancelled");
  });

  it("is cancelled before it starts when the signal is already aborted", async () => {
    const { agent, call, cwd } = setup([{ edits: [{ path: "a.txt", content: "a" }] }]);
    expect(await kindOf(agent().run(call("fixer", "fix", { signal: AbortSignal.abort() })))).toBe("cancelled");
    expect(existsSync(join(cwd, "a.txt"))).toBe(false);
  });
});

describe("FakeAgent log", () => {
  it("appends one JSON line per call with who was asked what", async () => {
    const { agent, call, log, cwd } = setup();
    const first = await agent().run(call("reviewer", "review it"));
    await agent().run(call("reviewer", "again", { sessionId: first.sessionId }));
    await agent().run(call("fixer", "fix it"));

    const lines = log();
    expect(lines).toEqual([
      {
        role: "reviewer",
        sessionAsked: null,
        sessionReturned: first.sessionId,
        resumed: false,
        turnsInSession: 1,
        cwd,
        prompt: "review it",
      },
      {
        role: "reviewer",
        sessionAsked: first.sessionId,
        sessionReturned: first.sessionId,
        resumed: true,
        turnsInSession: 2,
        cwd,
        prompt: "again",
      },
      {
        role: "fixer",
        sessionAsked: null,
        sessionReturned: expect.any(String),
        resumed: false,
        turnsInSession: 1,
        cwd,
        prompt: "fix it",
      },
    ]);
    expect(lines[2]!.sessionReturned).not.toBe(first.sessionId);
  });
});

describe("FakeAgent scenario file", () => {
  it.each<[string, string, RegExp]>([
    ["an unknown step key", JSON.stringify({ steps: [{ anwser: {} }] }), /^steps\.0: .*anwser/],
    ["an unknown top-level key", JSON.stringify({ steps: [], extra: 1 }), /^\(root\): .*extra/],
    ["a wrong type", JSON.stringify({ steps: [{ times: 0 }] }), /^steps\.0\.times: /],
    ["a bad role", JSON.stringify({ steps: [{ role: "tester" }] }), /^steps\.0\.role: /],
    ["no steps", JSON.stringify({}), /^steps: /],
    ["bad JSON", "{ steps: [", /JSON/],
  ])("rejects %s with a ConfigError naming the problem", (_what, content, problem) => {
    const root = tempDir();
    const scenarioPath = join(root, "scenario.json");
    writeFileSync(scenarioPath, content);
    let error: unknown;
    try {
      new FakeAgent({ scenarioPath, home: join(root, "home") });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).source).toBe(`FAKE_AGENT_SCENARIO (${scenarioPath})`);
    expect((error as ConfigError).problems).toEqual([expect.stringMatching(problem)]);
  });

  it("rejects a missing scenario file", () => {
    expect(() => new FakeAgent({ scenarioPath: join(tempDir(), "missing.json"), home: tempDir() })).toThrow(
      ConfigError,
    );
  });
});
