import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AgentError } from "../../../src/agents/agent-error.js";
import {
  ClaudeCodeAgent,
  DEFAULT_CLAUDE_CLI,
  type ClaudeCodeAgentOptions,
} from "../../../src/agents/claude/claude-code.js";
import { claudeProjectDirName } from "../../../src/agents/claude/claude-sessions.js";
import { SANDBOX_MODEL_PORT } from "../../../src/agents/sandbox/bubblewrap-args.js";
import { BubblewrapSandbox, SANDBOX_API_KEY_PLACEHOLDER } from "../../../src/agents/sandbox/bubblewrap-sandbox.js";
import type { AgentRunOptions } from "../../../src/agents/types.js";
import { loadRunAgentSession, saveRunAgentSession } from "../../../src/db/run-agent-sessions.js";
import { listTurns } from "../../../src/db/turns.js";
import { RunSessions, type TurnRequest } from "../../../src/pipeline/sessions/run-sessions.js";
import { captureLogger } from "../../helpers/capture-logger.js";
import {
  lastToolResult,
  messagesText,
  startFakeAnthropicServer,
  type FakeAnthropicServer,
} from "../../helpers/fake-anthropic-server.js";
import { createRun } from "../../helpers/run-fixture.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";
import { createTestDatabase, type TestDatabase } from "../../helpers/test-database.js";

const API_KEY = "sk-ant-test-0123456789abcdef";
/** Every test against the real CLI is bounded: a CLI call here takes about 1-2 s. */
const T = 45_000;

let server: FakeAnthropicServer;
let home: string;
let workspace: string;

function agent(extra: Partial<ClaudeCodeAgentOptions> = {}): ClaudeCodeAgent {
  return new ClaudeCodeAgent({ homeDir: home, apiKey: API_KEY, baseUrl: server.url, killGraceMs: 1000, ...extra });
}

function call(extra: Partial<AgentRunOptions> = {}): AgentRunOptions {
  return { prompt: "Review this.", cwd: workspace, role: "reviewer", timeoutMs: 30_000, ...extra };
}

/**
 * A wrapper around the real CLI that records the environment it was started with into its HOME
 * (the agent home, the one place the sandbox lets it write). Its folder is added read-only to the sandbox.
 */
function recordingCli(dir: string): { cli: string; sandbox: BubblewrapSandbox } {
  const cli = join(dir, "claude-wrapper.sh");
  writeFileSync(cli, `#!/bin/sh\nenv > "$HOME/cli.env"\nexec '${realpathSync(DEFAULT_CLAUDE_CLI)}' "$@"\n`);
  chmodSync(cli, 0o755);
  return {
    cli,
    sandbox: new BubblewrapSandbox({ extraReadOnly: [dir, join(realpathSync(DEFAULT_CLAUDE_CLI), "..", "..")] }),
  };
}

/** Host processes whose working directory is `dir` or inside it (the sandbox binds the workspace at its own path). */
function processesIn(dir: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cwd = readlinkSync(`/proc/${name}/cwd`);
      if (cwd === dir || cwd.startsWith(`${dir}/`)) pids.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

beforeEach(async () => {
  server = await startFakeAnthropicServer();
  home = tempDir("nm-claude-home-");
  workspace = tempDir("nm-claude-ws-");
  writeFileSync(join(workspace, "app.ts"), "export const greeting = 'hi';\n");
});
afterEach(async () => {
  await server.close();
});
afterAll(() => removeTempDirs());

describe("ClaudeCodeAgent against the real CLI and a fake model server", () => {
  it(
    "starts a session, then resumes it: the server sees the first turn's messages again",
    async () => {
      server.enqueue({
        text: 'Found one problem.\n```json\n{"findings":[{"title":"first-answer"}]}\n```',
        inputTokens: 120,
        outputTokens: 30,
      });
      const claude = agent();
      const first = await claude.run(call({ prompt: "FIRST-TURN-MARKER: review app.ts" }));
      expect(first.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(first.resumed).toBe(false);
      expect(first.json).toEqual({ findings: [{ title: "first-answer" }] });
      expect(first.usage.tokensIn).toBe(120);
      expect(first.usage.tokensOut).toBe(30);
      expect(first.usage.costUsd).toBeGreaterThanOrEqual(0);
      // The transcript is where the CLI keeps it, in the per-scope config dir.
      const transcript = join(
        home,
        "claude",
        "default",
        "projects",
        claudeProjectDirName(workspace),
        `${first.sessionId}.jsonl`,
      );
      expect(existsSync(transcript)).toBe(true);

      server.enqueue({ text: '{"findings":[]}' });
      const second = await claude.run(call({ prompt: "SECOND-TURN-MARKER", sessionId: first.sessionId }));
      expect(second.resumed).toBe(true);
      expect(second.sessionId).toBe(first.sessionId);
      expect(second.json).toEqual({ findings: [] });
      const seen = messagesText(server.mainCalls().at(-1)!);
      expect(seen).toContain("FIRST-TURN-MARKER");
      expect(seen).toContain("first-answer");
      expect(seen).toContain("SECOND-TURN-MARKER");
      // Every call came with the read-only tool set (the CLI does not remember it on resume).
      for (const body of server.mainCalls())
        expect(body.tools!.map((t) => t.name).sort()).toEqual(["Glob", "Grep", "Read"]);
    },
    T,
  );

  it(
    "exports and re-imports a session whose cwd is too long for a plain project dir name",
    async () => {
      const long = join(workspace, "d".repeat(120), "e".repeat(120));
      mkdirSync(long, { recursive: true });
      const claude = agent();
      const first = await claude.run(call({ cwd: long, prompt: "LONG-FIRST", scope: "s1" }));
      const state = await claude.portable.exportSession(first.sessionId!, long, "s1");
      expect(state).toBeDefined();
      rmSync(join(home, "claude"), { recursive: true, force: true });
      await claude.portable.importSession(first.sessionId!, long, state!, "s1");
      const second = await claude.run(
        call({ cwd: long, prompt: "LONG-SECOND", sessionId: first.sessionId, scope: "s1" }),
      );
      expect(second.resumed).toBe(true);
      expect(messagesText(server.mainCalls().at(-1)!)).toContain("LONG-FIRST");
      // nothing to export for an unknown or malformed id
      expect(await claude.portable.exportSession("11111111-2222-3333-4444-555555555555", long, "s1")).toBeUndefined();
      expect(await claude.portable.exportSession("../../x", long, "s1")).toBeUndefined();
    },
    T,
  );

  it(
    "keeps one config dir per scope",
    async () => {
      const result = await agent().run(call({ scope: "installation-42" }));
      expect(readdirSync(join(home, "claude"))).toEqual(["installation-42"]);
      expect(
        existsSync(
          join(
            home,
            "claude",
            "installation-42",
            "projects",
            claudeProjectDirName(workspace),
            `${result.sessionId}.jsonl`,
          ),
        ),
      ).toBe(true);
    },
    T,
  );

  it(
    "lets the fixer edit the workspace with the CLI's own tools",
    async () => {
      const file = join(workspace, "app.ts");
      server.setResponder(({ body }) => {
        const tools = server.mainCalls().length;
        const result = lastToolResult(body);
        if (!result) return { toolUse: { name: "Read", input: { file_path: file } } };
        if (result.isError) return { text: `tool failed: ${result.content}` };
        if (tools === 2)
          return { toolUse: { name: "Edit", input: { file_path: file, old_string: "'hi'", new_string: "'hello'" } } };
        return { text: '{"fixed":true}' };
      });
      const result = await agent().run(call({ role: "fixer", prompt: "Fix the greeting." }));
      expect(result.json).toEqual({ fixed: true });
      expect(readFileSync(file, "utf8")).toBe("export const greeting = 'hello';\n");
      const offered = server.mainCalls()[0]!.tools!.map((t) => t.name);
      expect(offered).toEqual(expect.arrayContaining(["Edit", "Write", "Read"]));
      expect(offered).not.toContain("Bash");
    },
    T,
  );

  it(
    "does not let the reviewer write, even when the model asks to",
    async () => {
      const file = join(workspace, "app.ts");
      const created = join(workspace, "new.ts");
      const results: string[] = [];
      server.setResponder(({ body }) => {
        const result = lastToolResult(body);
        if (result) results.push(result.content);
        const n = server.mainCalls().length;
        if (n === 1) return { toolUse: { name: "Write", input: { file_path: created, content: "pwned" } } };
        if (n === 2)
          return { toolUse: { name: "Edit", input: { file_path: file, old_string: "'hi'", new_string: "'pwned'" } } };
        if (n === 3) return { toolUse: { name: "Bash", input: { command: `touch ${join(workspace, "bash-ran")}` } } };
        return { text: '{"findings":[]}' };
      });
      const result = await agent().run(call({ prompt: "Review." }));
      expect(result.json).toEqual({ findings: [] });
      expect(readFileSync(file, "utf8")).toBe("export const greeting = 'hi';\n");
      expect(existsSync(created)).toBe(false);
      expect(existsSync(join(workspace, "bash-ran"))).toBe(false);
      expect(results).toHaveLength(3);
      for (const r of results) expect(r).toMatch(/not enabled|No such tool|denied|permission/i);
    },
    T,
  );

  it(
    "kills the CLI's whole process tree on timeout",
    async () => {
      server.enqueue({ hang: true });
      const running = agent().run(call({ timeoutMs: 3000 }));
      // The CLI runs (inside the sandbox, with the workspace as its cwd) while the model hangs.
      let seen = 0;
      for (let i = 0; i < 25 && seen === 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
        seen = processesIn(workspace).length;
      }
      expect(seen).toBeGreaterThan(0);
      const error = await running.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AgentError);
      expect((error as AgentError).kind).toBe("timeout");
      // No survivors: no process is left working in the workspace.
      const deadline = Date.now() + 3000;
      while (processesIn(workspace).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(processesIn(workspace)).toEqual([]);
    },
    T,
  );

  it(
    "works through either model bridge: socat (the image's) and node (when socat is not installed)",
    async () => {
      for (const bridge of ["socat", "node"] as const) {
        const sandbox = new BubblewrapSandbox({ bridge });
        expect(sandbox.bridge).toBe(bridge);
        server.enqueue({ text: `answered through ${bridge}` });
        const result = await agent({ sandbox }).run(call());
        expect(result.text).toBe(`answered through ${bridge}`);
      }
    },
    T,
  );

  it(
    "reports cancelled when the signal aborts",
    async () => {
      server.enqueue({ hang: true });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 1500);
      await expect(agent().run(call({ signal: controller.signal }))).rejects.toMatchObject({ kind: "cancelled" });
    },
    T,
  );

  it(
    "runs without GITHUB_TOKEN or other app secrets even when the parent has them",
    async () => {
      const { cli, sandbox } = recordingCli(tempDir());
      const saved = { GITHUB_TOKEN: process.env.GITHUB_TOKEN, DATABASE_URL: process.env.DATABASE_URL };
      process.env.GITHUB_TOKEN = "ghs_parent_secret";
      process.env.DATABASE_URL = "postgres://secret@db/x";
      try {
        await agent({ cli, sandbox }).run(call());
      } finally {
        for (const [k, v] of Object.entries(saved)) {
          if (v === undefined) delete process.env[k];
          else process.env[k] = v;
        }
      }
      const env = Object.fromEntries(
        readFileSync(join(home, "claude", "default", "home", "cli.env"), "utf8")
          .split("\n")
          .filter(Boolean)
          .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
      );
      expect(env.GITHUB_TOKEN).toBeUndefined();
      expect(env.DATABASE_URL).toBeUndefined();
      // Inside the sandbox the CLI holds a placeholder, never the key: the app's model proxy adds it.
      expect(JSON.stringify(env)).not.toContain(API_KEY);
      expect(env).toMatchObject({
        ANTHROPIC_API_KEY: SANDBOX_API_KEY_PLACEHOLDER,
        ANTHROPIC_BASE_URL: `http://127.0.0.1:${SANDBOX_MODEL_PORT}`,
        TMPDIR: "/tmp",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        CLAUDE_CODE_MAX_RETRIES: "0",
        DISABLE_AUTOUPDATER: "1",
        CLAUDE_CONFIG_DIR: join(home, "claude", "default"),
        HOME: join(home, "claude", "default", "home"),
      });
    },
    T,
  );

  it(
    "classifies an unknown session as resume-failed",
    async () => {
      await expect(agent().run(call({ sessionId: "11111111-2222-3333-4444-555555555555" }))).rejects.toMatchObject({
        kind: "resume-failed",
      });
      await expect(agent().run(call({ sessionId: "not-a-uuid" }))).rejects.toMatchObject({ kind: "resume-failed" });
    },
    T,
  );

  it(
    "classifies overload and rate limits as transient, other API errors as other, without leaking the key",
    async () => {
      server.enqueue({ status: 529 });
      await expect(agent().run(call())).rejects.toMatchObject({ kind: "transient" });
      server.enqueue({ status: 429 });
      await expect(agent().run(call())).rejects.toMatchObject({ kind: "transient" });
      server.enqueue({ status: 400, errorType: "invalid_request_error", message: `bad request for key ${API_KEY}` });
      const error = (await agent()
        .run(call())
        .catch((e: unknown) => e)) as AgentError;
      expect(error.kind).toBe("other");
      expect(error.message).not.toContain(API_KEY);
    },
    T,
  );

  it(
    "classifies an unreachable API as transient and a missing binary as spawn",
    async () => {
      const closed = await startFakeAnthropicServer();
      const url = closed.url;
      await closed.close();
      await expect(agent({ baseUrl: url }).run(call())).rejects.toMatchObject({ kind: "transient" });
      await expect(agent({ cli: join(home, "no-claude") }).run(call())).rejects.toMatchObject({ kind: "spawn" });
    },
    T,
  );
});

describe("ClaudeCodeAgent with RunSessions (PGlite)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
  });
  afterAll(async () => {
    await database.dispose();
  });

  function sessions(claude: ClaudeCodeAgent) {
    const { log } = captureLogger();
    return new RunSessions({ db: database.handle.db, agent: claude, log, retryBaseDelayMs: 1 });
  }
  const turn = (prompt: string): TurnRequest => ({
    trigger: "push",
    headSha: "c".repeat(40),
    prompt,
    cwd: workspace,
    timeoutMs: 30_000,
  });

  it(
    "stores the session id, resumes it on the next turn",
    async () => {
      const runId = await createRun(database.handle.db);
      const runner = sessions(agent());
      const first = await runner.run(runId, "reviewer", turn("RS-FIRST"));
      expect(first.mode).toBe("started");
      const row = await loadRunAgentSession(database.handle.db, runId, "reviewer");
      expect(row).toMatchObject({ agent: "claude", sessionId: first.result.sessionId });
      expect(row!.state).not.toBeNull();
      const second = await runner.run(runId, "reviewer", turn("RS-SECOND"));
      expect(second.mode).toBe("resumed");
      expect(second.result.sessionId).toBe(first.result.sessionId);
      expect(messagesText(server.mainCalls().at(-1)!)).toContain("RS-FIRST");
    },
    T,
  );

  it(
    "falls back to a fresh session when the stored id is bogus, and the turn completes",
    async () => {
      const runId = await createRun(database.handle.db);
      await saveRunAgentSession(database.handle.db, {
        runId,
        role: "reviewer",
        agent: "claude",
        sessionId: "99999999-8888-7777-6666-555555555555",
        state: null,
      });
      server.fallbackText = '{"findings":[]}';
      const outcome = await sessions(agent()).run(runId, "reviewer", turn("after a dead session"));
      expect(outcome.mode).toBe("fallback");
      expect(outcome.fallbackReason).toMatch(/resume-failed/);
      expect(outcome.result.json).toEqual({ findings: [] });
      expect(outcome.result.sessionId).not.toBe("99999999-8888-7777-6666-555555555555");
      const row = await loadRunAgentSession(database.handle.db, runId, "reviewer");
      expect(row!.sessionId).toBe(outcome.result.sessionId);
      const turns = await listTurns(database.handle.db, runId);
      expect(turns.at(-1)).toMatchObject({ status: "succeeded", sessionMode: "fallback" });
    },
    T,
  );

  it(
    "resumes after the config dir was wiped, from the exported state",
    async () => {
      const runId = await createRun(database.handle.db);
      const runner = sessions(agent());
      const first = await runner.run(runId, "reviewer", turn("WIPE-FIRST"));
      rmSync(join(home, "claude"), { recursive: true, force: true }); // a new replica, an empty disk
      const second = await sessions(agent()).run(runId, "reviewer", turn("WIPE-SECOND"));
      expect(second.mode).toBe("resumed");
      expect(second.result.sessionId).toBe(first.result.sessionId);
      const seen = messagesText(server.mainCalls().at(-1)!);
      expect(seen).toContain("WIPE-FIRST");
      expect(seen).toContain("WIPE-SECOND");
    },
    T,
  );
});

describe("ClaudeCodeAgent arguments and wiring", () => {
  it("passes the role's permissions on every call, resumes included, then the model and extra args", () => {
    const claude = new ClaudeCodeAgent({ homeDir: "/h", model: "claude-test-model", extraArgs: ["--effort", "low"] });
    const fixer = claude.args({ role: "fixer", sessionId: "11111111-2222-3333-4444-555555555555" });
    expect(fixer.slice(0, 3)).toEqual(["-p", "--output-format", "json"]);
    expect(fixer).toEqual(
      expect.arrayContaining([
        "--permission-mode",
        "acceptEdits",
        "--resume",
        "11111111-2222-3333-4444-555555555555",
        "--model",
        "claude-test-model",
      ]),
    );
    expect(fixer[fixer.indexOf("--tools") + 1]).toBe("Read,Edit,Write,NotebookEdit,Glob,Grep");
    expect(fixer[fixer.indexOf("--disallowedTools") + 1]).toContain("Bash");
    expect(fixer.slice(-2)).toEqual(["--effort", "low"]);
    const reviewer = claude.args({ role: "reviewer" });
    expect(reviewer[reviewer.indexOf("--tools") + 1]).toBe("Read,Glob,Grep");
    expect(reviewer[reviewer.indexOf("--disallowedTools") + 1]).toBe("Edit,Write,NotebookEdit,Bash,WebFetch,WebSearch");
    expect(reviewer).not.toContain("--permission-mode");
    expect(reviewer).not.toContain("--resume");
    // workspace settings (hooks) and MCP servers of the PR are never loaded
    expect(reviewer).toEqual(expect.arrayContaining(["--setting-sources", "user", "--strict-mcp-config"]));
    expect(claude.configDir("../../etc")).toBe("/h/claude/.._.._etc");
    expect(claude.configDir()).toBe("/h/claude/default");
  });

  it("is what createAgent makes for AGENT=claude, with the pinned CLI by default", async () => {
    const { createAgent } = await import("../../../src/agents/create-agent.js");
    const { readEnvConfig } = await import("../../../src/config/env/env-config.js");
    const dataDir = tempDir();
    const made = createAgent(
      readEnvConfig({ AGENT: "claude", DATA_DIR: dataDir, ANTHROPIC_API_KEY: "k", WEBHOOK_SECRET: "s" }),
    );
    expect(made).toBeInstanceOf(ClaudeCodeAgent);
    expect(made).toMatchObject({ name: "claude", supportsResume: true });
    expect(made.portable).toBeDefined();
    expect((made as ClaudeCodeAgent).configDir("7")).toBe(join(dataDir, "agents", "claude", "7"));
    expect(existsSync(DEFAULT_CLAUDE_CLI)).toBe(true);
  });
});
