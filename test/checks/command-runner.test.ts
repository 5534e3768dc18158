import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BubblewrapSandbox } from "../../src/agents/sandbox/bubblewrap-sandbox.js";
import { CommandRunner } from "../../src/checks/command-runner.js";
import { parseEgressRule } from "../../src/domain/egress-rule.js";
import { startNpmRegistryStandIn, type NpmRegistryStandIn } from "../helpers/npm-registry-stand-in.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";

/**
 * The repository's own commands are the PR author's code: they run in the sandbox on a scratch checkout that
 * is thrown away, see nothing of the app, reach no network (a setup: only the registries allowed), and are
 * stopped at the turn's limits — whatever they do, the result is the app's record of it.
 */

const LIMITS = { maxProcesses: 64, maxMemoryMb: 512, maxFileMb: 64, maxWorkspaceMb: 64 };
const runner = new CommandRunner({
  sandbox: new BubblewrapSandbox({ limits: LIMITS }),
  scratchDir: tempDir("nm-runner-"),
  concurrency: 2,
});

let registry: NpmRegistryStandIn;
let elsewhere: Server;
let elsewherePort: number;

beforeAll(async () => {
  registry = await startNpmRegistryStandIn([
    { name: "left-pad-lite", version: "1.0.0", files: { "index.js": "module.exports = (s, n) => s.padStart(n);\n" } },
  ]);
  elsewhere = createServer((_req, res) => res.end("secret from the host\n"));
  await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
  elsewherePort = (elsewhere.address() as AddressInfo).port;
});

afterAll(async () => {
  await registry.close();
  await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
  removeTempDirs();
});

function scratch(files: Record<string, string> = {}): string {
  const root = tempDir("nm-scratch-");
  const ws = join(root, "ws");
  mkdirSync(ws);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(ws, path, ".."), { recursive: true });
    writeFileSync(join(ws, path), content);
  }
  writeFileSync(join(root, "outside-canary"), "canary");
  return ws;
}

describe("a check on a scratch checkout (real bwrap)", () => {
  it("runs in the checkout, exits as the command does, and leaves the checkout as it was", async () => {
    const ws = scratch({ "a.txt": "alpha\n" });
    const result = await runner.run({
      kind: "check",
      workspace: ws,
      command: "pwd; cat a.txt; echo beta > a.txt; mkdir -p out; echo x > out/x; echo stderr-line >&2; exit 3",
      timeoutMs: 60_000,
    });
    expect(result.exitCode).toBe(3);
    expect(result.output).toBe("/workspace\nalpha\nstderr-line\n"); // never the worker's own folders
    expect(result.outputDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(readdirSync(ws)).toEqual(["a.txt"]);
    expect(readFileSync(join(ws, "a.txt"), "utf8")).toBe("alpha\n");
  }, 60_000);

  it("sees no network, not even the host's loopback, and nothing of the app: no token, no key, no file beside it", async () => {
    process.env.GITHUB_TOKEN_CANARY = "ghs_canary";
    const ws = scratch();
    const result = await runner.run({
      kind: "reproducer",
      workspace: ws,
      command: [
        `node -e "require('http').get('http://127.0.0.1:${elsewherePort}/',r=>r.pipe(process.stdout)).on('error',e=>console.log('net:',e.code))"`,
        "env | sort | cut -d= -f1 | tr '\\n' ' '; echo",
        "cat ../outside-canary 2>&1 | head -1",
      ].join("; "),
      timeoutMs: 60_000,
    });
    delete process.env.GITHUB_TOKEN_CANARY;
    const [net, env, canary] = result.output.trim().split("\n");
    expect(net).toBe("net: ECONNREFUSED");
    expect(
      env!
        .trim()
        .split(" ")
        .filter((n) => !["OLDPWD", "PWD", "SHLVL", "_"].includes(n)),
    ).toEqual([
      "CI",
      "HOME",
      "LANG",
      "NO_COLOR",
      "PATH",
      "PIP_DISABLE_PIP_VERSION_CHECK",
      "PYTHONDONTWRITEBYTECODE",
      "TMPDIR",
      "npm_config_audit",
      "npm_config_fund",
      "npm_config_update_notifier",
    ]);
    expect(canary).toContain("No such file or directory");
  }, 60_000);

  it("stacks folders over the checkout, the topmost winning (a reproducer's test over the PR's)", async () => {
    const ws = scratch({ "t.js": "console.log('the PR\\'s')\n", "lib.js": "module.exports = 2\n" });
    const top = tempDir("nm-layer-");
    writeFileSync(join(top, "t.js"), "console.log('the reproducer\\'s', require('./lib.js'))\n");
    const result = await runner.run({
      kind: "reproducer",
      workspace: ws,
      command: "node t.js",
      layers: [top],
      timeoutMs: 60_000,
    });
    expect(result.exitCode).toBe(0);
    expect(result.output).toBe("the reproducer's 2\n");
  }, 60_000);

  it("is stopped at its time limit, and at a resource limit, and says which", async () => {
    const ws = scratch();
    const slow = await runner.run({ kind: "check", workspace: ws, command: "sleep 30", timeoutMs: 1000 });
    expect(slow.timedOut).toBe(true);
    const bomb = await runner.run({
      kind: "reproducer",
      workspace: ws,
      command: "f() { f | f & }; f; sleep 30",
      timeoutMs: 60_000,
    });
    expect(bomb.limit).toContain("AGENT_MAX_PROCESSES");
    const filler = await runner.run({
      kind: "reproducer",
      workspace: ws,
      command: "i=0; while [ $i -lt 40 ]; do head -c 4M /dev/zero > f$i; i=$((i+1)); done; sleep 30",
      timeoutMs: 60_000,
    });
    expect(filler.limit).toContain("AGENT_MAX_WORKSPACE_MB");
    expect(readdirSync(ws)).toEqual([]);
  }, 120_000);
});

describe("a setup (real bwrap, a registry stand-in on 127.0.0.1)", () => {
  it("installs from an allowed registry through the egress proxy, and its new files are saved", async () => {
    const ws = scratch({
      "package.json": JSON.stringify({ name: "app", version: "1.0.0", dependencies: { "left-pad-lite": "1.0.0" } }),
    });
    const cache = tempDir("nm-setup-cache-");
    const result = await runner.run({
      kind: "setup",
      workspace: ws,
      command: `npm install --registry ${registry.url} --no-package-lock --ignore-scripts`,
      registries: [parseEgressRule(`127.0.0.1:${registry.port}`)],
      saveTo: cache,
      timeoutMs: 120_000,
    });
    expect(result.output).not.toContain("ERR");
    expect(result.exitCode).toBe(0);
    expect(result.egress?.allowed).toEqual([`127.0.0.1:${registry.port}`]);
    expect(registry.requests).toContain("/left-pad-lite");
    expect(readFileSync(join(cache, "node_modules/left-pad-lite/index.js"), "utf8")).toContain("padStart");
    expect(readdirSync(ws)).toEqual(["package.json"]); // the checkout itself is untouched
  }, 120_000);

  it("reaches nothing else: another host or port is refused and logged", async () => {
    const ws = scratch();
    const result = await runner.run({
      kind: "setup",
      workspace: ws,
      command: `node -e "require('http').get({host:'127.0.0.1',port:41918,path:'http://127.0.0.1:${elsewherePort}/',headers:{host:'127.0.0.1:${elsewherePort}'}},r=>{console.log('status',r.statusCode);r.resume()}).on('error',e=>console.log('net:',e.code))"`,
      registries: [parseEgressRule(`127.0.0.1:${registry.port}`)],
      timeoutMs: 60_000,
    });
    expect(result.output.trim()).toBe("status 403");
    expect(result.egress?.refused).toEqual([`127.0.0.1:${elsewherePort}`]);
  }, 60_000);
});
