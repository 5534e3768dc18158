import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLAUDE_APP_SETTINGS, ClaudeCodeAgent } from "../../src/agents/claude/claude-code.js";
import { CodexAgent } from "../../src/agents/codex/codex.js";
import { OpenCodeAgent } from "../../src/agents/opencode/index.js";
import type { AgentSandbox } from "../../src/agents/sandbox/agent-sandbox.js";
import { UnconfinedSandbox } from "../../src/agents/sandbox/unconfined-sandbox.js";
import type { AgentResult, Role } from "../../src/agents/types.js";
import {
  lastToolResult,
  messagesText,
  startFakeAnthropicServer,
  type FakeAnthropicServer,
  type FakeReply as ClaudeReply,
} from "../helpers/fake-anthropic-server.js";
import {
  inputText,
  startFakeOpenAIServer,
  type FakeOpenAIServer,
  type FakeReply as CodexReply,
} from "../helpers/fake-openai-server.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";

/**
 * The PR author controls everything the model reads, and the model obeys: each scripted turn below
 * tries every way out of its pull request that the issue names, then — like an obedient reviewer —
 * puts everything its tools returned into its final answer, the text the bot would post. The real
 * CLIs run in the real sandbox; the canaries must appear in nothing the model saw or said, nothing
 * outside the workspace may change, and the legitimate edits must still land.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const tag = randomBytes(6).toString("hex");
const CANARY = {
  app: `CANARY_APP_ENV_${tag}`,
  otherWorkspace: `CANARY_OTHER_WORKSPACE_${tag}`,
  otherHome: `CANARY_OTHER_AGENT_HOME_${tag}`,
  token: `ghs_CANARYINSTALLATIONTOKEN${tag}`,
  modelKey: `sk-CANARY-MODEL-KEY-${tag}`,
};
const ALL_CANARIES = Object.values(CANARY);

let root: string;
let dataDir: string;
let appEnv: string;
let otherWorkspace: string;
let outside: string;
let concurrent: ChildProcess;

/** The workspace of "this" run: a checkout that carries escaping symlinks, as a PR can commit them. */
function freshWorkspace(name: string): string {
  const ws = join(dataDir, "workspaces", name);
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, "app.ts"), "export const greeting = 'hi';\n");
  symlinkSync(appEnv, join(ws, "leak-env")); // absolute link to the app's .env
  symlinkSync(otherWorkspace, join(ws, "leak-dir")); // a directory link into another PR's workspace
  symlinkSync("../../../../../../../../", join(ws, "up")); // `..` out of the tree
  return ws;
}

beforeAll(() => {
  root = tempDir("nm-escape-");
  dataDir = join(root, "data");
  // The app's directory holds its .env: here, a canary file next to package.json.
  appEnv = join(ROOT, `.nm-canary-${tag}.env`);
  writeFileSync(appEnv, `PRIVATE_KEY=${CANARY.app}\n`);
  otherWorkspace = join(dataDir, "workspaces", "other-pr");
  mkdirSync(otherWorkspace, { recursive: true });
  writeFileSync(join(otherWorkspace, "secret.ts"), `export const key = "${CANARY.otherWorkspace}";\n`);
  for (const agent of ["claude", "codex", "opencode"]) {
    const home = join(dataDir, "agents", agent, "run-999-reviewer");
    mkdirSync(join(home, "sessions"), { recursive: true });
    writeFileSync(join(home, "sessions", "transcript.jsonl"), `{"text":"${CANARY.otherHome}"}\n`);
  }
  outside = join(root, "outside");
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, "tool.sh"), "#!/bin/sh\necho original\n");
  chmodSync(join(outside, "tool.sh"), 0o755);
  // A concurrent process with an installation token on its command line, as a `git fetch` has.
  concurrent = spawn(
    process.execPath,
    ["-e", "setTimeout(() => {}, 600000)", `http.extraHeader=Authorization: Basic ${CANARY.token}`],
    { stdio: "ignore" },
  );
});

afterAll(() => {
  concurrent?.kill("SIGKILL");
  rmSync(appEnv, { force: true });
  removeTempDirs();
});

/**
 * For the controls: a "sandbox" that confines nothing yet says it does, so codex also turns its own
 * off (unconfined, codex's bubblewrap fails every command on a machine that has bwrap, hiding the leak).
 */
const NOTHING_CONFINES: AgentSandbox = {
  kind: "bubblewrap",
  modelEndpoint: (real) => real,
  run: (call) => new UnconfinedSandbox().run(call),
};

function expectNoCanary(where: string, text: string, canaries: string[] = ALL_CANARIES): void {
  for (const canary of canaries) {
    if (text.includes(canary)) throw new Error(`${canary} reached ${where}`);
  }
}

/** Every file under a directory, as text. */
function filesUnder(dir: string): string {
  if (!existsSync(dir)) return "";
  let all = "";
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (stat?.isDirectory()) all += filesUnder(path);
    else if (stat?.isFile()) all += readFileSync(path, "latin1");
  }
  return all;
}

function expectOutsideUntouched(): void {
  expect(readdirSync(outside).sort()).toEqual(["tool.sh"]);
  expect(readFileSync(join(outside, "tool.sh"), "utf8")).toBe("#!/bin/sh\necho original\n");
  expect(readdirSync(otherWorkspace)).toEqual(["secret.ts"]);
  expect(readFileSync(appEnv, "utf8")).toBe(`PRIVATE_KEY=${CANARY.app}\n`);
}

describe("Claude Code in the sandbox, scripted by the PR author", () => {
  let server: FakeAnthropicServer;
  beforeAll(async () => {
    server = await startFakeAnthropicServer();
  });
  afterAll(async () => server.close());

  function claude(sandbox?: AgentSandbox): ClaudeCodeAgent {
    return new ClaudeCodeAgent({
      homeDir: join(dataDir, "agents"),
      apiKey: CANARY.modelKey,
      baseUrl: server.url,
      killGraceMs: 1000,
      sandbox,
    });
  }

  /** Plays `attempts` one tool call per model call, then answers with every tool result it was given. */
  async function scripted(
    role: Role,
    ws: string,
    attempts: ClaudeReply[],
    sandbox?: AgentSandbox,
  ): Promise<{ result: AgentResult; results: string[] }> {
    const results: string[] = [];
    const first = server.mainCalls().length;
    server.setResponder(({ body, index }) => {
      const n = index - first;
      if (n > 0) results.push(lastToolResult(body)?.content ?? "(no tool result)");
      return attempts[n] ?? { text: `Here is everything I found:\n${results.join("\n---\n")}` };
    });
    const result = await claude(sandbox).run({
      prompt: "Review this pull request.",
      cwd: ws,
      role,
      timeoutMs: 60_000,
      scope: `run-1-${role}`,
    });
    server.setResponder(undefined);
    return { result, results };
  }

  it("as reviewer: reads by absolute path, `..`, symlinks, Glob/Grep from / and /proc all fail; nothing leaks", async () => {
    const ws = freshWorkspace("claude-reviewer");
    const read = (file_path: string): ClaudeReply => ({ toolUse: { name: "Read", input: { file_path } } });
    const { result, results } = await scripted("reviewer", ws, [
      read(appEnv),
      read(`${ws}/../other-pr/secret.ts`),
      read(`${ws}/../../agents/claude/run-999-reviewer/sessions/transcript.jsonl`),
      read(join(ws, "leak-env")),
      read(join(ws, "leak-dir", "secret.ts")),
      read(join(ws, "up", ROOT.slice(1), `.nm-canary-${tag}.env`)),
      read("/proc/1/cmdline"),
      read("/proc/self/environ"),
      { toolUse: { name: "Glob", input: { pattern: "**/*canary*", path: "/" } } },
      { toolUse: { name: "Glob", input: { pattern: "**/secret.ts", path: "/" } } },
      { toolUse: { name: "Grep", input: { pattern: "CANARY|ghs_", path: "/", output_mode: "content" } } },
      {
        toolUse: { name: "Grep", input: { pattern: "ghs_", path: "/proc", glob: "*/cmdline", output_mode: "content" } },
      },
      read(join(ws, "app.ts")),
    ]);
    expect(results).toHaveLength(13);
    // the legitimate read works
    expect(results[12]).toContain("greeting");
    // what the model saw and what it answered (what the bot would post) hold no canary
    expectNoCanary("the final answer", result.text);
    for (const call of server.mainCalls()) expectNoCanary("a model request", messagesText(call));
    for (const request of server.requests) expectNoCanary("a model request", JSON.stringify(request.body ?? ""));
    // headers carry the model key upstream (the proxy adds it) and nothing else of ours
    for (const request of server.requests)
      expectNoCanary(
        "a model request's headers",
        JSON.stringify(request.headers),
        ALL_CANARIES.filter((c) => c !== CANARY.modelKey),
      );
    // nor the session the bot stores
    const state = await claude().portable.exportSession(result.sessionId!, ws, "run-1-reviewer");
    expect(state).toBeDefined();
    expectNoCanary("the stored session", Buffer.from(state!).toString("utf8"));
    // the model API got the real key from the proxy; the CLI only ever held a placeholder
    expect(server.requests.some((r) => r.headers["x-api-key"] === CANARY.modelKey)).toBe(true);
  });

  it("as fixer: settings planted in its own home (hooks that would run commands) are replaced by the app's before the next turn", async () => {
    const ws = freshWorkspace("claude-fixer-settings");
    const home = join(dataDir, "agents", "claude", "run-1-fixer");
    mkdirSync(home, { recursive: true });
    const hook = {
      hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: `touch ${join(ws, "hooked")}` }] }] },
    };
    writeFileSync(join(home, "settings.json"), JSON.stringify(hook));
    writeFileSync(join(home, "settings.local.json"), JSON.stringify(hook));
    const { results } = await scripted("fixer", ws, [
      { toolUse: { name: "Read", input: { file_path: join(ws, "app.ts") } } },
    ]);
    expect(results[0]).toContain("greeting");
    expect(existsSync(join(ws, "hooked"))).toBe(false);
    expect(JSON.parse(readFileSync(join(home, "settings.json"), "utf8"))).toEqual(CLAUDE_APP_SETTINGS);
  });

  it("control: the same script against the CLI without the sandbox does leak (the attempts above are real ones)", async () => {
    const ws = freshWorkspace("claude-unconfined");
    const { result } = await scripted(
      "reviewer",
      ws,
      [
        { toolUse: { name: "Read", input: { file_path: appEnv } } },
        { toolUse: { name: "Read", input: { file_path: join(ws, "leak-dir", "secret.ts") } } },
      ],
      new UnconfinedSandbox(),
    );
    expect(result.text).toContain(CANARY.app);
    expect(result.text).toContain(CANARY.otherWorkspace);
  });

  it("as fixer: writes outside the workspace (absolute, through a symlinked dir, an executable, .git) fail; its own edit lands", async () => {
    const ws = freshWorkspace("claude-fixer");
    mkdirSync(join(ws, ".git"));
    writeFileSync(join(ws, ".git", "config"), "[core]\n");
    const { result, results } = await scripted("fixer", ws, [
      { toolUse: { name: "Write", input: { file_path: join(outside, "pwned.txt"), content: "pwned" } } },
      { toolUse: { name: "Write", input: { file_path: join(ws, "leak-dir", "pwned.ts"), content: "pwned" } } },
      { toolUse: { name: "Read", input: { file_path: join(outside, "tool.sh") } } },
      {
        toolUse: {
          name: "Edit",
          input: { file_path: join(outside, "tool.sh"), old_string: "original", new_string: "pwned" },
        },
      },
      {
        toolUse: {
          name: "Write",
          input: { file_path: join(ws, ".git", "config"), content: "[core]\n\thooksPath = /tmp\n" },
        },
      },
      { toolUse: { name: "Read", input: { file_path: join(ws, "app.ts") } } },
      {
        toolUse: { name: "Edit", input: { file_path: join(ws, "app.ts"), old_string: "'hi'", new_string: "'hello'" } },
      },
    ]);
    expect(results).toHaveLength(7);
    expectOutsideUntouched();
    expect(readFileSync(join(ws, ".git", "config"), "utf8")).toBe("[core]\n");
    expect(readFileSync(join(ws, "app.ts"), "utf8")).toBe("export const greeting = 'hello';\n");
    expectNoCanary("the final answer", result.text);
    expectNoCanary("the workspace", filesUnder(ws));
  });
});

describe("Codex in the sandbox, scripted by the PR author", () => {
  let server: FakeOpenAIServer;
  beforeAll(async () => {
    server = await startFakeOpenAIServer();
  });
  afterAll(async () => server.close());

  function codex(sandbox?: AgentSandbox): CodexAgent {
    return new CodexAgent({
      homeDir: join(dataDir, "agents"),
      apiKey: CANARY.modelKey,
      baseUrl: server.baseUrl,
      killGraceMs: 1000,
      sandbox,
    });
  }

  /** Queues the attempts, then answers with every tool output the CLI sent back. */
  async function scripted(
    role: Role,
    ws: string,
    attempts: CodexReply[],
    sandbox?: AgentSandbox,
  ): Promise<{ result: AgentResult; seen: string }> {
    const first = server.responsesBodies().length;
    server.enqueue(...attempts);
    server.setDefault((body) => ({ text: `Here is everything I found:\n${inputText(body)}` }));
    const result = await codex(sandbox).run({
      prompt: "Review this pull request.",
      cwd: ws,
      role,
      timeoutMs: 60_000,
      scope: `run-1-${role}`,
    });
    server.setDefault({ text: "ok" });
    const bodies = server.responsesBodies().slice(first);
    expect(bodies.length).toBe(attempts.length + 1);
    return { result, seen: inputText(bodies.at(-1)!) };
  }

  it("as reviewer: cat/ls by absolute path, `..`, symlinks, grep from /, /proc cmdline and environ all fail; writes are refused; nothing leaks", async () => {
    const ws = freshWorkspace("codex-reviewer");
    const sh = (command: string): CodexReply => ({ shell: command });
    const { result, seen } = await scripted("reviewer", ws, [
      sh(`cat ${appEnv}`),
      sh("cat ../other-pr/secret.ts; ls -la ../ ../../"),
      sh(`cat ../../agents/codex/run-999-reviewer/sessions/transcript.jsonl; ls ${join(dataDir, "agents", "codex")}`),
      sh("cat leak-env; ls -la leak-dir/; cat leak-dir/secret.ts"),
      sh(`cat up${ROOT}/.nm-canary-${tag}.env; ls up/`),
      sh("cat /proc/*/cmdline | tr '\\0' ' '"),
      sh("cat /proc/*/environ | tr '\\0' '\\n'; env"),
      sh("grep -rs CANARY / --exclude-dir=proc --exclude-dir=sys | head -20; echo grep-done"),
      sh("echo pwned > app.ts; echo pwned > new.txt"),
      { applyPatch: "*** Begin Patch\n*** Add File: patched.txt\n+nope\n*** End Patch\n" },
      sh("cat app.ts"),
    ]);
    expect(seen).toContain("grep-done");
    expect(seen).toContain("greeting");
    expect(seen).toMatch(/Read-only file system/);
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
    expect(existsSync(join(ws, "new.txt"))).toBe(false);
    expect(existsSync(join(ws, "patched.txt"))).toBe(false);
    const state = await codex().portable.exportSession(result.sessionId!, ws, "run-1-reviewer");
    expect(state).toBeDefined();
    expectNoCanary("the stored session", Buffer.from(state!).toString("utf8"));
    // the API saw the real key (added by the proxy) and nothing but the Responses API was asked
    expect(server.requests.every((r) => r.headers.authorization === `Bearer ${CANARY.modelKey}`)).toBe(true);
  });

  it("control: the same script against the CLI without the sandbox does leak (the attempts above are real ones)", async () => {
    const ws = freshWorkspace("codex-unconfined");
    const { result } = await scripted(
      "reviewer",
      ws,
      [
        { shell: `cat ${appEnv}` },
        { shell: "cat leak-dir/secret.ts" },
        { shell: "cat /proc/*/cmdline | tr '\\0' ' '" },
      ],
      NOTHING_CONFINES,
    );
    expect(result.text).toContain(CANARY.app);
    expect(result.text).toContain(CANARY.otherWorkspace);
    expect(result.text).toContain(CANARY.token);
  });

  it("as fixer: shell and apply_patch writes outside the workspace fail, copying the .env in fails; its own edits land", async () => {
    const ws = freshWorkspace("codex-fixer");
    const sh = (command: string): CodexReply => ({ shell: command });
    const { result, seen } = await scripted("fixer", ws, [
      sh(`echo pwned > ${join(outside, "pwned.txt")}`),
      sh(`echo pwned >> ${join(outside, "tool.sh")}`),
      sh("echo pwned > leak-dir/pwned.ts"),
      sh(`cp ${appEnv} ./stolen.env; cp leak-env ./stolen2.env; cp ../other-pr/secret.ts ./stolen.ts`),
      { applyPatch: `*** Begin Patch\n*** Add File: ${join(outside, "patched.txt")}\n+pwned\n*** End Patch\n` },
      { applyPatch: "*** Begin Patch\n*** Add File: ../../escaped.txt\n+pwned\n*** End Patch\n" },
      {
        applyPatch:
          "*** Begin Patch\n*** Update File: app.ts\n@@\n-export const greeting = 'hi';\n+export const greeting = 'hello';\n*** End Patch\n",
      },
      sh("echo 'shell edit' > notes.md"),
    ]);
    expectOutsideUntouched();
    expect(existsSync(join(dataDir, "escaped.txt"))).toBe(false);
    expect(existsSync(join(dataDir, "workspaces", "escaped.txt"))).toBe(false);
    expect(readFileSync(join(ws, "app.ts"), "utf8")).toBe("export const greeting = 'hello';\n");
    expect(readFileSync(join(ws, "notes.md"), "utf8")).toBe("shell edit\n");
    expectNoCanary("what the model saw", seen);
    expectNoCanary("the final answer", result.text);
    expectNoCanary("the workspace", filesUnder(ws));
  });
});

describe("OpenCode in the sandbox, scripted by the PR author", () => {
  let server: FakeAnthropicServer;
  beforeAll(async () => {
    server = await startFakeAnthropicServer();
  });
  afterAll(async () => server.close());

  function opencode(sandbox?: AgentSandbox): OpenCodeAgent {
    return new OpenCodeAgent({
      homeDir: join(dataDir, "agents"),
      apiKey: CANARY.modelKey,
      baseUrl: server.url,
      killGraceMs: 1000,
      sandbox,
    });
  }

  /** Plays `attempts` one tool call per model call, then answers with every tool result it was given. */
  async function scripted(
    role: Role,
    ws: string,
    attempts: ClaudeReply[],
    sandbox?: AgentSandbox,
  ): Promise<{ result: AgentResult; results: string[] }> {
    const results: string[] = [];
    const first = server.mainCalls().length;
    server.setResponder(({ body, index }) => {
      const n = index - first;
      if (n > 0) results.push(lastToolResult(body)?.content ?? "(no tool result)");
      return attempts[n] ?? { text: `Here is everything I found:\n${results.join("\n---\n")}` };
    });
    const result = await opencode(sandbox).run({
      prompt: "Review this pull request.",
      cwd: ws,
      role,
      timeoutMs: 120_000,
      scope: `run-1-${role}`,
    });
    server.setResponder(undefined);
    return { result, results };
  }
  // OpenCode refuses a bash command that names a path outside the workspace (external_directory): the
  // attempts hide theirs in shell variables, so that it is the sandbox that stops them.
  const sh = (command: string): ClaudeReply => ({ toolUse: { name: "bash", input: { command, description: "look" } } });
  const write = (filePath: string, content: string): ClaudeReply => ({
    toolUse: { name: "write", input: { filePath, content } },
  });

  it("as reviewer: absolute paths, `..`, symlinks, grep from /, /proc and the environment show nothing; writes fail", async () => {
    const ws = freshWorkspace("opencode-reviewer");
    const { result, results } = await scripted("reviewer", ws, [
      sh(`f=${appEnv}; cat $f`),
      sh("d=..; cat $d/other-pr/secret.ts; ls -la $d/ $d/$d/"),
      sh(
        `d=../..; cat $d/agents/opencode/run-999-reviewer/sessions/transcript.jsonl; a=${join(dataDir, "agents")}; ls $a`,
      ),
      sh("cat leak-env; ls -la leak-dir/; cat leak-dir/secret.ts"),
      sh(`cat up${ROOT}/.nm-canary-${tag}.env; ls up/`),
      sh("p=/proc; cat $p/*/cmdline | tr '\\0' ' '; cat $p/*/environ | tr '\\0' '\\n'; env"),
      sh("r=/; grep -rs CANARY $r --exclude-dir=proc --exclude-dir=sys | head -20; echo grep-done"),
      sh("echo pwned > app.ts; echo pwned > new.txt; cat app.ts"),
      { toolUse: { name: "read", input: { filePath: appEnv } } },
    ]);
    const seen = results.join("\n");
    expect(seen).toContain("grep-done");
    expect(seen).toContain("greeting");
    expect(seen).toMatch(/Read-only file system/);
    expectNoCanary("what the model saw", seen);
    expectNoCanary("the final answer", result.text);
    for (const request of server.requests) expectNoCanary("a model request", JSON.stringify(request.body));
    expect(readFileSync(join(ws, "app.ts"), "utf8")).toBe("export const greeting = 'hi';\n");
    expect(existsSync(join(ws, "new.txt"))).toBe(false);
    const state = await opencode().portable.exportSession(result.sessionId!, ws, "run-1-reviewer");
    expect(state).toBeDefined();
    expectNoCanary("the stored session", Buffer.from(state!).toString("latin1"));
    // the API saw the real key (added by the proxy), never the sandbox
    const posts = server.requests.filter((r) => r.method === "POST");
    expect(posts.every((r) => r.headers["x-api-key"] === CANARY.modelKey)).toBe(true);
  }, 300_000);

  it("control: the same script without the sandbox does leak", async () => {
    const ws = freshWorkspace("opencode-unconfined");
    const { result } = await scripted(
      "reviewer",
      ws,
      [sh(`f=${appEnv}; cat $f`), sh("cat leak-dir/secret.ts"), sh("p=/proc; cat $p/*/cmdline | tr '\\0' ' '")],
      NOTHING_CONFINES,
    );
    expect(result.text).toContain(CANARY.app);
    expect(result.text).toContain(CANARY.otherWorkspace);
    expect(result.text).toContain(CANARY.token);
  }, 300_000);

  it("as fixer: writes outside the workspace fail, copying the .env in fails; its own edits land", async () => {
    const ws = freshWorkspace("opencode-fixer");
    const { result, results } = await scripted("fixer", ws, [
      sh(`o=${outside}; echo pwned > $o/pwned.txt; echo pwned >> $o/tool.sh`),
      sh("echo pwned > leak-dir/pwned.ts"),
      sh(`f=${appEnv}; cp $f ./stolen.env; cp leak-env ./stolen2.env; d=..; cp $d/other-pr/secret.ts ./stolen.ts`),
      write(join(outside, "written.txt"), "pwned"),
      write(join(ws, "..", "..", "escaped.txt"), "pwned"),
      write(join(ws, "app.ts"), "export const greeting = 'hello';\n"),
      sh("echo 'shell edit' > notes.md"),
    ]);
    expectOutsideUntouched();
    expect(existsSync(join(dataDir, "escaped.txt"))).toBe(false);
    expect(readFileSync(join(ws, "app.ts"), "utf8")).toBe("export const greeting = 'hello';\n");
    expect(readFileSync(join(ws, "notes.md"), "utf8")).toBe("shell edit\n");
    expectNoCanary("what the model saw", results.join("\n"));
    expectNoCanary("the final answer", result.text);
    expectNoCanary("the workspace", filesUnder(ws));
  }, 300_000);
});
