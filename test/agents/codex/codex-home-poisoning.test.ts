import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { CodexAgent } from "../../../src/agents/codex/codex.js";
import type { AgentSandbox } from "../../../src/agents/sandbox/agent-sandbox.js";
import { UnconfinedSandbox } from "../../../src/agents/sandbox/unconfined-sandbox.js";
import type { Role } from "../../../src/agents/types.js";
import { startFakeOpenAIServer } from "../../helpers/fake-openai-server.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";

/**
 * A turn writes its CODEX_HOME, and the home is kept for the later turns of its run and role. What a
 * turn leaves there — told to by the PR — must neither stop those turns nor run code of its own at them:
 * checked with the real CLI, in the app's sandbox and without one.
 */

const T = 90_000;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});
afterAll(() => removeTempDirs());

function put(root: string, file: string, body: string): void {
  const path = join(root, file);
  rmSync(join(root, file.split("/")[0]!), { recursive: true, force: true }); // what codex made there, replaced
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, body);
}

function workspace(): string {
  const dir = tempDir("nm-poison-ws-");
  execFileSync("git", ["init", "-q", "-b", "feature"], { cwd: dir });
  return dir;
}

const LAUNCHES: Array<{ name: string; role: Role; sandbox: () => AgentSandbox | undefined }> = [
  { name: "the reviewer in the app's sandbox", role: "reviewer", sandbox: () => undefined },
  { name: "the fixer without a sandbox (AGENT_SANDBOX=off)", role: "fixer", sandbox: () => new UnconfinedSandbox() },
];

async function setup(sandbox: AgentSandbox | undefined, extraArgs?: string[]) {
  const server = await startFakeOpenAIServer();
  closers.push(() => server.close());
  const homeDir = tempDir("nm-poison-home-");
  const codex = new CodexAgent({
    homeDir,
    apiKey: "sk-codex-poison",
    baseUrl: server.baseUrl,
    killGraceMs: 1000,
    sandbox,
    extraArgs,
  });
  return { server, codex, home: join(homeDir, "codex", "default") };
}

describe("what a turn leaves in its CODEX_HOME does not stop the next turn", () => {
  for (const { name, role, sandbox } of LAUNCHES) {
    it(
      name,
      async () => {
        const { server, codex, home } = await setup(sandbox());
        const cwd = workspace();
        server.enqueue({ text: "FIRST" });
        const first = await codex.run({ prompt: "first", cwd, role, timeoutMs: 60_000 });
        expect(first.text).toBe("FIRST");

        // An execpolicy rules file that does not parse, and entries of the wrong kind where codex keeps its own.
        put(home, "rules/default.rules", "this is ( not starlark\n");
        writeFileSync(join(home, "rules/more.rules"), 'prefix_rule(pattern = ["git"], decision = "forbidden")\n(');
        put(home, "thread-writer-locks", "a file where codex wants a directory\n");
        put(home, "installation_id/x", "a directory where codex wants a file\n");
        put(home, "tmpdir", "a file where the app puts TMPDIR\n");

        server.enqueue({ shell: "git --version" }, { text: "SECOND" });
        const second = await codex.run({ prompt: "second", cwd, role, timeoutMs: 60_000, sessionId: first.sessionId });
        expect(second.text).toBe("SECOND");
        expect(second.resumed).toBe(true);
      },
      T,
    );
  }
});

describe("no codex hook runs, from the home or the PR head", () => {
  const EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"];
  /** A hooks.json whose every hook leaves a marker file and prints its marker as added context. */
  function hooksJson(markDir: string, tag: string): string {
    const hook = (event: string) => [
      { hooks: [{ type: "command", command: `touch ${markDir}/${tag}-${event}; echo HOOK-RAN-${tag}-${event}` }] },
    ];
    return JSON.stringify({ hooks: Object.fromEntries(EVENTS.map((event) => [event, hook(event)])) });
  }

  for (const { name, role, sandbox } of LAUNCHES) {
    // Unmanaged hooks run only once trusted (trust lives in config.toml, which is the app's); an operator's
    // AGENT_ARGS may waive that: hooks stay off then too.
    for (const extraArgs of [[], ["--dangerously-bypass-hook-trust"]]) {
      it(
        `${name}${extraArgs.length > 0 ? ", hook trust waived through AGENT_ARGS" : ""}`,
        async () => {
          const { server, codex, home } = await setup(sandbox(), extraArgs);
          const cwd = workspace();
          const markDir = tempDir("nm-poison-mark-");
          put(home, "hooks.json", hooksJson(markDir, "home"));
          put(cwd, ".codex/hooks.json", hooksJson(markDir, "head"));

          server.enqueue({ shell: "echo tool-ran" }, { text: "DONE" });
          const result = await codex.run({ prompt: "PROMPT-SEEN", cwd, role, timeoutMs: 60_000 });

          expect(result.text).toBe("DONE");
          const sent = JSON.stringify(server.requests.map((r) => r.body));
          expect(sent).toContain("PROMPT-SEEN");
          expect(sent).toContain("tool-ran");
          expect(sent.match(/HOOK-RAN-[a-z]+-[A-Za-z]+/g) ?? []).toEqual([]);
          const marks = EVENTS.flatMap((e) => [`home-${e}`, `head-${e}`]).filter((f) => existsSync(join(markDir, f)));
          expect(marks).toEqual([]);
        },
        T,
      );
    }
  }
});
