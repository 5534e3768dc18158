import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toAgentError } from "../agent-error.js";
import type { AgentSandbox } from "./agent-sandbox.js";

export type SandboxProbe = { ok: true; ms: number } | { ok: false; reason: string };

/**
 * Runs one tiny command through the sandbox exactly as an agent call runs (namespaces, mounts,
 * bridge) and checks that it works AND confines: a file next to the workspace must be invisible.
 */
export async function probeSandbox(sandbox: AgentSandbox, timeoutMs = 20_000): Promise<SandboxProbe> {
  const root = await mkdtemp(join(tmpdir(), "nm-sandbox-probe-"));
  const workspace = join(root, "workspace");
  const home = join(root, "home");
  const outside = join(root, "outside-canary");
  const started = Date.now();
  try {
    await Promise.all([mkdir(workspace), mkdir(home), writeFile(outside, "canary")]);
    const result = await sandbox.run({
      command: "/bin/sh",
      args: ["-c", `test -d "$1" && test ! -e "$2" && echo confined`, "probe", workspace, outside],
      workspace,
      writable: false,
      home,
      runtime: [],
      env: { PATH: "/usr/bin:/bin" },
      stdin: "",
      timeoutMs,
      model: {
        upstream: "http://127.0.0.1:9",
        policy: { api: "anthropic", models: [], maxOutputTokens: 1, serverTools: false },
      },
    });
    if (result.exitCode === 0 && result.stdout.includes("confined")) return { ok: true, ms: Date.now() - started };
    const why = result.timedOut
      ? `no answer within ${timeoutMs} ms`
      : result.stderr.trim() || `exit ${result.exitCode ?? result.signal}`;
    return { ok: false, reason: why.slice(0, 500) };
  } catch (error) {
    return { ok: false, reason: toAgentError(error).message.slice(0, 500) };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
