import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { CLAUDE_APP_SETTINGS, ClaudeCodeAgent } from "../../src/agents/claude/claude-code.js";
import { CodexAgent, codexHomeFor } from "../../src/agents/codex/codex.js";
import type { AgentSandbox } from "../../src/agents/sandbox/agent-sandbox.js";
import { UnconfinedSandbox } from "../../src/agents/sandbox/unconfined-sandbox.js";
import {
  lastToolResult,
  startFakeAnthropicServer,
  type FakeAnthropicServer,
  type FakeReply as ClaudeReply,
} from "../helpers/fake-anthropic-server.js";
import { inputText, startFakeOpenAIServer, type FakeOpenAIServer } from "../helpers/fake-openai-server.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";

/**
 * The agent owns its home: between two turns it may have left a link, a FIFO or a file of its own
 * where the app reads or writes. The real CLIs run in the real sandbox (and unconfined where the
 * app's own file handling is all there is); the host files the links point at must stay unread and
 * unchanged, and no turn may hang on what the agent left.
 */

const PRIVATE_KEY = "-----BEGIN RSA PRIVATE KEY-----\nCANARY-host-file\n-----END RSA PRIVATE KEY-----\n";

let root: string;
let victim: string;
let cwd: string;

beforeEach(() => {
  root = tempDir("nm-home-attack-");
  victim = join(root, "app-private-key.pem"); // a host file outside every agent home
  writeFileSync(victim, PRIVATE_KEY);
  cwd = join(root, "ws");
  mkdirSync(cwd);
  writeFileSync(join(cwd, "app.ts"), "export const greeting = 'hi';\n");
});
afterAll(() => removeTempDirs());

describe("Codex: what the agent left at config.toml", () => {
  let server: FakeOpenAIServer;
  beforeEach(async () => {
    server = await startFakeOpenAIServer();
  });
  afterEach(async () => server.close());

  function codex(sandbox?: AgentSandbox): CodexAgent {
    return new CodexAgent({ homeDir: join(root, "agents"), baseUrl: server.baseUrl, apiKey: "sk-x", sandbox });
  }
  const turn = () => ({
    prompt: "Review this.",
    cwd,
    role: "reviewer" as const,
    timeoutMs: 30_000,
    scope: "run-1-reviewer",
  });

  for (const [name, sandbox] of [
    ["in the sandbox", undefined],
    ["unconfined (AGENT_SANDBOX=off)", new UnconfinedSandbox()],
  ] as const) {
    it(`${name}: a link to a host file is neither read nor written through; the turn runs on the app's config`, async () => {
      const home = codexHomeFor(join(root, "agents"), "run-1-reviewer");
      mkdirSync(home, { recursive: true });
      symlinkSync(victim, join(home, "config.toml"));
      const result = await codex(sandbox).run(turn());
      expect(result.text).toBe("ok");
      expect(readFileSync(victim, "utf8")).toBe(PRIVATE_KEY);
      expect(lstatSync(join(home, "config.toml")).isFile()).toBe(true);
      expect(readFileSync(join(home, "config.toml"), "utf8")).toContain('model_provider = "no_mistakes"');
    });
  }

  it("a FIFO at config.toml does not hang the turn", async () => {
    const home = codexHomeFor(join(root, "agents"), "run-1-reviewer");
    mkdirSync(home, { recursive: true });
    execFileSync("mkfifo", [join(home, "config.toml")]);
    const result = await codex().run(turn());
    expect(result.text).toBe("ok");
  }, 20_000);

  it("a FIFO at the rollout of the thread resumed: the app neither blocks on it nor exports it", async () => {
    const first = await codex().run(turn());
    const home = codexHomeFor(join(root, "agents"), "run-1-reviewer");
    const exported = await codex().portable.exportSession(first.sessionId!, cwd, "run-1-reviewer");
    const header = JSON.parse(Buffer.from(exported!).toString("utf8").split("\n")[0]!) as { path: string };
    const rollout = join(home, ...header.path.split("/"));
    rmSync(rollout);
    execFileSync("mkfifo", [rollout]);
    expect(await codex().portable.exportSession(first.sessionId!, cwd, "run-1-reviewer")).toBeUndefined();
    // codex itself meets the FIFO inside the sandbox, within the turn's own time limit
    await codex()
      .run({ ...turn(), sessionId: first.sessionId, timeoutMs: 5_000 })
      .catch(() => undefined);
  }, 30_000);

  it("the reviewer's shell rewriting config.toml mid-turn fails: the app's config is read-only inside", async () => {
    const home = codexHomeFor(join(root, "agents"), "run-1-reviewer");
    server.enqueue({ shell: `echo 'model_provider = "evil"' >> ${join(home, "config.toml")}; echo wrote-$?` });
    server.setDefault((body) => ({ text: inputText(body) }));
    await codex().run(turn());
    expect(server.responsesBodies().length).toBe(2);
    expect(readFileSync(join(home, "config.toml"), "utf8")).not.toContain("evil");
    expect(inputText(server.responsesBodies()[1]!)).toMatch(/Read-only file system/);
  });
});

describe("Claude Code: the fixer writing its own settings", () => {
  let server: FakeAnthropicServer;
  beforeEach(async () => {
    server = await startFakeAnthropicServer();
  });
  afterEach(async () => server.close());

  function claude(): ClaudeCodeAgent {
    return new ClaudeCodeAgent({
      homeDir: join(root, "agents"),
      baseUrl: server.url,
      apiKey: "sk-ant-x",
    });
  }

  it("a Write of settings.json (a hook that runs a command) in its config dir fails; no hook runs; the app's settings stand", async () => {
    const configDir = claude().configDir("run-1-fixer");
    const hooked = join(cwd, "hooked");
    const hook = {
      hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: `touch ${hooked}` }] }] },
    };
    const attempts: ClaudeReply[] = [
      {
        toolUse: {
          name: "Write",
          input: { file_path: join(configDir, "settings.json"), content: JSON.stringify(hook) },
        },
      },
      { toolUse: { name: "Read", input: { file_path: join(cwd, "app.ts") } } },
    ];
    const seen: string[] = [];
    server.setResponder(({ body, index }) => {
      if (index > 0) seen.push(lastToolResult(body)?.content ?? "(none)");
      return attempts[index] ?? { text: "done" };
    });
    const first = await claude().run({ prompt: "Fix.", cwd, role: "fixer", timeoutMs: 45_000, scope: "run-1-fixer" });
    expect(seen[0]).not.toMatch(/success|written/i);
    expect(seen[1]).toContain("greeting");
    // what the next turn loads is the app's: no hook, and hooks switched off
    const settings = JSON.parse(readFileSync(join(configDir, "settings.json"), "utf8")) as Record<string, unknown>;
    expect(settings).toEqual(CLAUDE_APP_SETTINGS);
    // the next turn (a resume) runs on the app's settings too
    await claude().run({
      prompt: "Again.",
      cwd,
      role: "fixer",
      timeoutMs: 45_000,
      scope: "run-1-fixer",
      sessionId: first.sessionId,
    });
    expect(existsSync(hooked)).toBe(false);
  }, 120_000);
});
