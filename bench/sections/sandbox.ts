/**
 * 5. Sandbox overhead: the same agent call — the real Claude Code CLI, one short turn against a fake
 * model server on 127.0.0.1 — with and without the bubblewrap sandbox, interleaved in pairs in one
 * run. The added time is the median of the pairs' differences (each pair ran back to back, so the
 * machine's drift cancels out), compared with the unsandboxed call's p50.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ClaudeCodeAgent } from "../../src/agents/claude/claude-code.js";
import { BubblewrapSandbox } from "../../src/agents/sandbox/bubblewrap-sandbox.js";
import { UnconfinedSandbox } from "../../src/agents/sandbox/unconfined-sandbox.js";
import { startFakeAnthropicServer } from "../../test/helpers/fake-anthropic-server.js";
import { SMOKE, emitResult, median, percentile, round, tempRoot } from "../lib/common.js";

const calls = SMOKE ? 4 : 30;
const root = tempRoot("sandbox");
const server = await startFakeAnthropicServer();
server.fallbackText = '{"summary":"ok","findings":[],"resolved":[]}';
const workspace = join(root, "workspace");
mkdirSync(workspace, { recursive: true });
writeFileSync(join(workspace, "app.ts"), "export const greeting = 'hi';\n");

// The same environment for both: the sandbox drops CA-bundle and proxy variables (not needed inside),
// which alone makes a CLI start faster; measured with them absent on both sides, the difference is the
// sandbox itself (bubblewrap, the model bridge, the proxy hop).
const baseEnv = Object.fromEntries(
  Object.entries(process.env).filter(
    ([name]) => !/^(NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|HTTPS?_PROXY|NO_PROXY|ALL_PROXY)$/i.test(name),
  ),
);
const sandbox = new BubblewrapSandbox();
const variants = {
  unsandboxed: new ClaudeCodeAgent({
    homeDir: join(root, "agents-plain"),
    apiKey: "sk-ant-bench",
    baseUrl: server.url,
    baseEnv,
    sandbox: new UnconfinedSandbox(),
  }),
  sandboxed: new ClaudeCodeAgent({
    homeDir: join(root, "agents-sandboxed"),
    apiKey: "sk-ant-bench",
    baseUrl: server.url,
    baseEnv,
    sandbox,
  }),
};
const times: Record<keyof typeof variants, number[]> = { unsandboxed: [], sandboxed: [] };

// One warm-up call each (page cache, the CLI's first start), then interleaved pairs, alternating which goes first.
for (const agent of Object.values(variants))
  await agent.run({ prompt: "Review.", cwd: workspace, role: "reviewer", timeoutMs: 60_000, scope: "warmup" });
for (let i = 0; i < calls; i++) {
  const order = i % 2 === 0 ? (["unsandboxed", "sandboxed"] as const) : (["sandboxed", "unsandboxed"] as const);
  for (const name of order) {
    const started = performance.now();
    const result = await variants[name].run({
      prompt: "Review.",
      cwd: workspace,
      role: "reviewer",
      timeoutMs: 60_000,
      scope: `call-${i}`,
    });
    if (!result.text.includes("findings")) throw new Error(`${name}: unexpected answer ${result.text.slice(0, 200)}`);
    times[name].push(performance.now() - started);
  }
}
await server.close();

const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: round(median(values), 1), p90: round(percentile(sorted, 90), 1), min: round(sorted[0]!, 1) };
};
const plain = summary(times.unsandboxed);
const boxed = summary(times.sandboxed);
const added = median(times.sandboxed.map((t, i) => t - times.unsandboxed[i]!));
emitResult({
  calls,
  bridge: sandbox.bridge,
  unsandboxed: plain,
  sandboxed: boxed,
  addedMs: round(added, 1),
  addedRatio: round(added / plain.p50, 4),
});
