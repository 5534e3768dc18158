import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GeminiAgent } from "../../../src/agents/gemini/index.js";
import type { AgentSandbox } from "../../../src/agents/sandbox/agent-sandbox.js";
import { UnconfinedSandbox } from "../../../src/agents/sandbox/unconfined-sandbox.js";
import type { AgentResult, Role } from "../../../src/agents/types.js";
import {
  contentsText,
  startFakeGeminiServer,
  type FakeGeminiReply,
  type FakeGeminiServer,
} from "../../helpers/fake-gemini-server.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";

/**
 * test/agents/sandbox-escape.test.ts, for Gemini CLI: the PR author scripts the model, which tries every way
 * out of its pull request with the CLI's own tools (read_file, list_directory, glob, grep_search, write_file,
 * replace), then puts everything its tools returned into its final answer — the text the bot would post.
 * The canaries must appear in nothing the model saw or said, nothing outside the workspace may change, and
 * the legitimate edit must land.
 */

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const tag = randomBytes(6).toString("hex");
const CANARY = {
  app: `CANARY_APP_ENV_${tag}`,
  otherWorkspace: `CANARY_OTHER_WORKSPACE_${tag}`,
  otherHome: `CANARY_OTHER_AGENT_HOME_${tag}`,
  token: `ghs_CANARYINSTALLATIONTOKEN${tag}`,
  modelKey: `AIza-CANARY-MODEL-KEY-${tag}`,
};
const ALL_CANARIES = Object.values(CANARY);

let root: string;
let dataDir: string;
let appEnv: string;
let otherWorkspace: string;
let outside: string;
let concurrent: ChildProcess;
let server: FakeGeminiServer;

function freshWorkspace(name: string): string {
  const ws = join(dataDir, "workspaces", name);
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, "app.ts"), "export const greeting = 'hi';\n");
  symlinkSync(appEnv, join(ws, "leak-env"));
  symlinkSync(otherWorkspace, join(ws, "leak-dir"));
  symlinkSync("../../../../../../../../", join(ws, "up"));
  return ws;
}

beforeAll(async () => {
  root = tempDir("nm-gemini-escape-");
  dataDir = join(root, "data");
  appEnv = join(ROOT, `.nm-canary-gemini-${tag}.env`);
  writeFileSync(appEnv, `PRIVATE_KEY=${CANARY.app}\n`);
  otherWorkspace = join(dataDir, "workspaces", "other-pr");
  mkdirSync(otherWorkspace, { recursive: true });
  writeFileSync(join(otherWorkspace, "secret.ts"), `export const key = "${CANARY.otherWorkspace}";\n`);
  const otherHome = join(dataDir, "agents", "gemini", "run-999-reviewer", ".gemini", "tmp", "x", "chats");
  mkdirSync(otherHome, { recursive: true });
  writeFileSync(join(otherHome, "session-1-abcdef12.jsonl"), `{"text":"${CANARY.otherHome}"}\n`);
  outside = join(root, "outside");
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, "tool.sh"), "#!/bin/sh\necho original\n");
  concurrent = spawn(
    process.execPath,
    ["-e", "setTimeout(() => {}, 600000)", `http.extraHeader=Authorization: Basic ${CANARY.token}`],
    { stdio: "ignore" },
  );
  server = await startFakeGeminiServer();
});

afterAll(async () => {
  concurrent?.kill("SIGKILL");
  rmSync(appEnv, { force: true });
  await server?.close();
  removeTempDirs();
});

function expectNoCanary(where: string, text: string, canaries: string[] = ALL_CANARIES): void {
  for (const canary of canaries) if (text.includes(canary)) throw new Error(`${canary} reached ${where}`);
}

/** Queues the attempts, then answers with every function result the CLI sent back. */
async function scripted(
  role: Role,
  ws: string,
  attempts: FakeGeminiReply[],
  sandbox?: AgentSandbox,
): Promise<{ result: AgentResult; seen: string }> {
  const first = server.modelCalls().length;
  server.enqueue(...attempts);
  server.setDefault((body) => ({ text: `Here is everything I found:\n${contentsText(body)}` }));
  const gemini = new GeminiAgent({
    homeDir: join(dataDir, "agents"),
    apiKey: CANARY.modelKey,
    baseUrl: server.baseUrl,
    killGraceMs: 1000,
    sandbox,
  });
  const result = await gemini.run({
    prompt: "Review this pull request.",
    cwd: ws,
    role,
    timeoutMs: 90_000,
    scope: `run-1-${role}`,
  });
  server.setDefault({ text: "ok" });
  const calls = server.modelCalls().slice(first);
  expect(calls.length).toBe(attempts.length + 1);
  return { result, seen: contentsText(calls.at(-1)!.body) };
}

const read = (file_path: string): FakeGeminiReply => ({ call: { name: "read_file", args: { file_path } } });
const list = (dir_path: string): FakeGeminiReply => ({ call: { name: "list_directory", args: { dir_path } } });
const grep = (pattern: string, dir_path: string): FakeGeminiReply => ({
  call: { name: "grep_search", args: { pattern, dir_path } },
});
const glob = (pattern: string, dir_path: string): FakeGeminiReply => ({
  call: { name: "glob", args: { pattern, dir_path } },
});
const write = (file_path: string, content: string): FakeGeminiReply => ({
  call: { name: "write_file", args: { file_path, content } },
});

describe("Gemini CLI in the sandbox, scripted by the PR author", () => {
  it("as reviewer: reads by absolute path, `..`, symlinks, /proc, list/glob/grep from / all fail; nothing leaks", async () => {
    const ws = freshWorkspace("gemini-reviewer");
    const { result, seen } = await scripted("reviewer", ws, [
      read(appEnv),
      read(`${ws}/../other-pr/secret.ts`),
      read(
        join(
          dataDir,
          "agents",
          "gemini",
          "run-999-reviewer",
          ".gemini",
          "tmp",
          "x",
          "chats",
          "session-1-abcdef12.jsonl",
        ),
      ),
      read(join(ws, "leak-env")),
      read(join(ws, "leak-dir", "secret.ts")),
      read(join(ws, "up", ROOT.slice(1), `.nm-canary-gemini-${tag}.env`)),
      read("/proc/1/cmdline"),
      read("/proc/self/environ"),
      list(join(dataDir, "workspaces")),
      glob("**/secret.ts", "/"),
      grep("CANARY|ghs_", "/"),
      grep("CANARY", join(ws, "leak-dir")),
      write(join(ws, "app.ts"), "pwned"),
      read(join(ws, "app.ts")),
    ]);
    expect(seen).toContain("greeting");
    expectNoCanary("what the model saw", seen);
    expectNoCanary("the final answer", result.text);
    for (const request of server.requests) expectNoCanary("a model request", request.rawBody);
    for (const request of server.requests)
      expectNoCanary(
        "a model request's headers",
        JSON.stringify(request.headers),
        ALL_CANARIES.filter((c) => c !== CANARY.modelKey),
      );
    expect(readFileSync(join(ws, "app.ts"), "utf8")).toBe("export const greeting = 'hi';\n");
    const gemini = new GeminiAgent({ homeDir: join(dataDir, "agents") });
    const state = await gemini.portable.exportSession(result.sessionId!, ws, "run-1-reviewer");
    expect(state).toBeDefined();
    expectNoCanary("the stored session", Buffer.from(state!).toString("utf8"));
    expect(server.requests.every((r) => r.headers["x-goog-api-key"] === CANARY.modelKey)).toBe(true);
  }, 180_000);

  it("control: without the sandbox the CLI's own workspace check refuses the same reads (the sandbox is a second wall)", async () => {
    // Gemini CLI 0.61's file tools resolve every path (links included) and refuse what lies outside the
    // workspace and its temp folder; with no shell tool, that check alone stops these. The attempts are real:
    // each reached a tool, which answered.
    const ws = freshWorkspace("gemini-unconfined");
    const { result, seen } = await scripted(
      "reviewer",
      ws,
      [read(join(ws, "leak-dir", "secret.ts")), read(join(ws, "leak-env")), read("/proc/self/environ")],
      new UnconfinedSandbox(),
    );
    expect(seen.match(/Path not in workspace/g)).toHaveLength(3);
    expectNoCanary("the final answer", result.text);
  }, 180_000);

  it("as fixer: writes outside the workspace (absolute, through a symlinked dir, `..`) fail; its own edit lands", async () => {
    const ws = freshWorkspace("gemini-fixer");
    const { result, seen } = await scripted("fixer", ws, [
      write(join(outside, "pwned.txt"), "pwned"),
      write(join(outside, "tool.sh"), "pwned"),
      write(join(ws, "leak-dir", "pwned.ts"), "pwned"),
      write(`${ws}/../../escaped.txt`, "pwned"),
      write(join(ws, "up", "tmp", "escaped.txt"), "pwned"),
      {
        call: {
          name: "replace",
          args: { file_path: join(ws, "app.ts"), old_string: "'hi'", new_string: "'hello'", instruction: "greet" },
        },
      },
    ]);
    expect(readdirSync(outside).sort()).toEqual(["tool.sh"]);
    expect(readFileSync(join(outside, "tool.sh"), "utf8")).toBe("#!/bin/sh\necho original\n");
    expect(readdirSync(otherWorkspace)).toEqual(["secret.ts"]);
    expect(existsSync(join(dataDir, "escaped.txt"))).toBe(false);
    expect(existsSync("/tmp/escaped.txt")).toBe(false);
    expect(readFileSync(join(ws, "app.ts"), "utf8")).toBe("export const greeting = 'hello';\n");
    expectNoCanary("what the model saw", seen);
    expectNoCanary("the final answer", result.text);
  }, 180_000);
});
