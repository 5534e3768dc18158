/**
 * 12. Checks: the repository's own code run by the app, in the real bubblewrap sandbox, on a Node project
 * (node:test) whose setup installs its dependencies from an npm registry stand-in on 127.0.0.1
 * (test/helpers/npm-registry-stand-in.ts), through the pipeline's checks room (`prepareHead`,
 * `runReproducer`) on the embedded database, as a job calls it.
 * - Setup, cold vs cached: a head prepared with an empty setup cache (its setup runs — npm install in the
 *   sandbox, only the stand-in reachable — and is saved) vs the same head again (the saved tree stacked over
 *   the scratch checkout). Interleaved in pairs, each cold one on a new cache; the ratio of the medians.
 * - A reproducer's overhead: the same command (`node --test` on the reproducer's test) run directly, by
 *   `/bin/sh -c` in a plain copy of the same tree (checkout + setup + the reproducer's file), vs through
 *   `runReproducer` (its files written, the sandbox, layers, no network, the execution recorded). Pairs; the
 *   ratio of the medians.
 * - A review turn with and without verification: the fake agent's review turn alone vs the turn followed by
 *   what verifying its findings costs — the head prepared (the base's setup from the cache) and three
 *   reproducers run (one reproduces, one passes, one cannot run). The fake agent answers at once, so
 *   the added time is the figure: a real model's turn takes tens of seconds.
 */
import {
  prepareHead,
  runReproducer,
  runContext,
  type PreparedHead,
  type PipelineDeps,
  type RunContext,
} from "../../src/pipeline/index.js";
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pino from "pino";
import { FakeAgent } from "../../src/agents/fake/fake.js";
import { BubblewrapSandbox } from "../../src/agents/sandbox/bubblewrap-sandbox.js";
import { CommandRunner, SetupCache, type Checks } from "../../src/checks/index.js";
import { parseRepoConfig } from "../../src/config/repo/repo-config.js";
import { upsertRun } from "../../src/db/runs.js";
import type { Reproducer } from "../../src/db/schema.js";
import { parseEgressRule } from "../../src/domain/egress-rule.js";
import { GitWorkspace } from "../../src/git/git-workspace.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import { createOrigin, git } from "../../test/git/git-fixture.js";
import { startNpmRegistryStandIn, type StandInPackage } from "../../test/helpers/npm-registry-stand-in.js";
import { createTestDatabase } from "../../test/helpers/test-database.js";
import { SMOKE, emitResult, median, round, tempRoot } from "../lib/common.js";

const cfg = {
  packages: SMOKE ? 5 : 40,
  setupPairs: SMOKE ? 2 : 5,
  reproducerPairs: SMOKE ? 4 : 20,
  turnPairs: SMOKE ? 2 : 8,
};
const root = tempRoot("checks");

// The project: `cfg.packages` dependencies (each a few files), a module with an off-by-one on the PR's head.
const packages: StandInPackage[] = Array.from({ length: cfg.packages }, (_, i) => ({
  name: `bench-dep-${i}`,
  version: "1.0.0",
  files: {
    "index.js": `module.exports = (x) => x + ${i};\n`,
    "README.md": `# bench-dep-${i}\n${"Some documentation. ".repeat(200)}\n`,
    "extra.js": `exports.value = ${JSON.stringify("x".repeat(2000))};\n`,
  },
}));
const registry = await startNpmRegistryStandIn(packages);
const dependencies = Object.fromEntries(packages.map((p) => [p.name, p.version]));
const LAST = "exports.last = (xs) => xs[xs.length];\n";
const origin = createOrigin();
const base = origin.commit(
  {
    "package.json": JSON.stringify({ name: "demo", version: "1.0.0", dependencies }),
    "lib.js": LAST.replace("xs[xs.length]", "xs[xs.length - 1]"),
    "lib.test.js": "require('node:test')('loads', () => require('./lib.js'));\n",
  },
  "base",
);
origin.push("main");
git(origin.work, "checkout", "-q", "-b", "feature");
const head = origin.commit({ "lib.js": LAST }, "pr");
origin.push("feature");

const database = await createTestDatabase("pglite");
const run = await upsertRun(database.handle.db, {
  installationId: 1,
  repositoryId: 4242,
  repositoryFullName: "octo/demo",
  cloneUrl: origin.bare,
  prNumber: 1,
  baseRef: "main",
  baseSha: base,
  headRef: "feature",
  headSha: head,
});
const workspace = new GitWorkspace(join(root, "workspace"));
await workspace.ensure();
await workspace.fetch(origin.bare, [base, head]);
const { config, problems } = parseRepoConfig(`
checks:
  setup:
    - { run: "npm install --registry ${registry.url} --ignore-scripts --no-audit --no-fund", timeout: 5m }
  commands:
    - { name: tests, run: "node --test" }
`);
if (problems.length) throw new Error(problems.join("\n"));
const ctx: RunContext = runContext(database.handle.db, run, {} as GitHubClient, config);
const sandbox = new BubblewrapSandbox();

/** The pipeline's deps with a setup cache of its own under `name` (a new name: an empty cache). */
function depsWith(name: string): PipelineDeps {
  const dir = join(root, "checks", name);
  mkdirSync(join(dir, "scratch"), { recursive: true });
  const checks: Checks = {
    runner: new CommandRunner({ sandbox, scratchDir: join(dir, "scratch"), concurrency: 2 }),
    cache: new SetupCache(join(dir, "cache"), 4 * 1024 ** 3),
    registries: [parseEgressRule(`127.0.0.1:${registry.port}`)],
    scratchDir: join(dir, "scratch"),
  };
  return {
    db: database.handle.db,
    log: pino({ level: "silent" }),
    workspace: () => workspace,
    checks,
  } as unknown as PipelineDeps;
}

async function prepared(deps: PipelineDeps): Promise<PreparedHead> {
  const h = await prepareHead(deps, ctx, head, { phase: "review" });
  if ("unavailable" in h) throw new Error(h.unavailable);
  if (h.setup.status === "failed") throw new Error(`setup failed: ${h.setup.detail}`);
  return h;
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

// 1. Setup: cold (a new cache each time) vs cached (the warm cache), interleaved.
const warm = depsWith("warm");
await (await prepared(warm)).dispose(); // fills the warm cache (and warms the page cache)
const setup = { cold: [] as number[], cached: [] as number[] };
for (let i = 0; i < cfg.setupPairs; i++) {
  const cold = await timed(() => prepared(depsWith(`cold-${i}`)));
  if (cold.value.setup.status !== "ran") throw new Error(`cold setup was ${cold.value.setup.status}`);
  await cold.value.dispose();
  const cached = await timed(() => prepared(warm));
  if (cached.value.setup.status !== "cached") throw new Error(`cached setup was ${cached.value.setup.status}`);
  await cached.value.dispose();
  setup.cold.push(cold.ms);
  setup.cached.push(cached.ms);
}

// 2. A reproducer through the app vs the same command run directly on a plain copy of the same tree.
const reproducer = (name: string, body: string): Reproducer => ({
  files: [{ path: `repro/${name}.test.js`, content: body }],
  command: `node --test repro/${name}.test.js`,
});
const failing = reproducer(
  "last",
  "const t = require('node:test'); const a = require('node:assert'); const { last } = require('../lib.js');\n" +
    "t.test('last', () => a.strictEqual(last([1, 2, 3]), 3));\n",
);
const passing = reproducer(
  "deps",
  "const t = require('node:test'); const a = require('node:assert');\n" +
    "t.test('deps', () => a.strictEqual(require('bench-dep-0')(1), 1));\n",
);
// a runner the tree does not have: the shell cannot run it (exit 127), never a reproduction
const broken: Reproducer = {
  ...reproducer("broken", "exports.x = 1;\n"),
  command: "no-such-runner repro/broken.test.js",
};
const headTree = await prepared(warm);
const plain = join(root, "plain");
cpSync(headTree.scratch, plain, { recursive: true });
for (const layer of [...headTree.layers].reverse()) cpSync(layer, plain, { recursive: true, force: true });
for (const f of failing.files) {
  mkdirSync(join(plain, "repro"), { recursive: true });
  writeFileSync(join(plain, f.path), f.content);
}
const direct = () =>
  timed(async () => {
    try {
      execFileSync("/bin/sh", ["-c", failing.command], { cwd: plain, stdio: "pipe" });
      return 0;
    } catch (error) {
      return (error as { status: number }).status;
    }
  });
const through = () => timed(() => runReproducer(warm, ctx, headTree, failing, { phase: "review" }));
await direct();
await through();
const repro = { direct: [] as number[], app: [] as number[] };
for (let i = 0; i < cfg.reproducerPairs; i++) {
  const order = i % 2 === 0 ? (["direct", "app"] as const) : (["app", "direct"] as const);
  for (const which of order) {
    if (which === "direct") {
      const d = await direct();
      if (d.value === 0) throw new Error("the reproducer passed when run directly");
      repro.direct.push(d.ms);
    } else {
      const t = await through();
      if (t.value.outcome !== "reproduced") throw new Error(`the reproducer was ${t.value.outcome}: ${t.value.why}`);
      repro.app.push(t.ms);
    }
  }
}
await headTree.dispose();

// 3. A review turn (the fake agent) alone, and followed by its findings' verification.
const agent = new FakeAgent({ home: join(root, "fake-agent") });
const turn = () => agent.run({ prompt: "Review the change.", cwd: workspace.dir, role: "reviewer", timeoutMs: 60_000 });
async function verified(): Promise<string[]> {
  await turn();
  const h = await prepared(warm);
  try {
    const outcomes: string[] = [];
    for (const r of [failing, passing, broken])
      outcomes.push((await runReproducer(warm, ctx, h, r, { phase: "review" })).outcome);
    return outcomes;
  } finally {
    await h.dispose();
  }
}
const turns = { alone: [] as number[], verified: [] as number[] };
for (let i = 0; i < cfg.turnPairs; i++) {
  turns.alone.push((await timed(turn)).ms);
  const v = await timed(verified);
  if (v.value.join(",") !== "reproduced,not-reproduced,broken") throw new Error(`outcomes: ${v.value.join(",")}`);
  turns.verified.push(v.ms);
}

await registry.close();
await database.dispose();

const ms = (values: number[]) => round(median(values), 1);
emitResult({
  packages: cfg.packages,
  setup: {
    pairs: cfg.setupPairs,
    coldMs: ms(setup.cold),
    cachedMs: ms(setup.cached),
    ratio: round(median(setup.cached) / median(setup.cold), 3),
  },
  reproducer: {
    pairs: cfg.reproducerPairs,
    directMs: ms(repro.direct),
    appMs: ms(repro.app),
    ratio: round(median(repro.app) / median(repro.direct), 3),
  },
  reviewTurn: {
    pairs: cfg.turnPairs,
    reproducers: 3,
    aloneMs: ms(turns.alone),
    verifiedMs: ms(turns.verified),
    addedMs: round(median(turns.verified) - median(turns.alone), 1),
  },
});
