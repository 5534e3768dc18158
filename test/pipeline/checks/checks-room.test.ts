import { readdirSync } from "node:fs";
import { join } from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BubblewrapSandbox } from "../../../src/agents/sandbox/bubblewrap-sandbox.js";
import { CommandRunner, SetupCache, type Checks } from "../../../src/checks/index.js";
import { parseRepoConfig } from "../../../src/config/repo/repo-config.js";
import { listRunExecutions } from "../../../src/db/executions.js";
import { upsertRun } from "../../../src/db/runs.js";
import { parseEgressRule } from "../../../src/domain/egress-rule.js";
import { GitWorkspace } from "../../../src/git/git-workspace.js";
import type { GitHubClient } from "../../../src/github/github-client.js";
import { prepareHead } from "../../../src/pipeline/checks/prepare-head.js";
import type { PreparedHead } from "../../../src/pipeline/checks/prepared-head.js";
import { runChecks } from "../../../src/pipeline/checks/run-checks.js";
import { runReproducer } from "../../../src/pipeline/checks/run-reproducer.js";
import type { PipelineDeps } from "../../../src/pipeline/job/pipeline-deps.js";
import { runContext } from "../../../src/pipeline/job/run-context.js";
import { createOrigin, git } from "../../git/git-fixture.js";
import { startNpmRegistryStandIn, type NpmRegistryStandIn } from "../../helpers/npm-registry-stand-in.js";
import { createTestDatabase, type TestDatabase } from "../../helpers/test-database.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";

/**
 * The pipeline's checks room on real repositories the test makes: a Node project (node:test, a dependency from
 * a registry stand-in) and a Python one (unittest), each with an off-by-one on the PR's head. Setup runs once
 * per inputs and is reused; a PR whose lockfile differs gets a setup of its own; reproducers read as the app
 * sees them run.
 */

let database: TestDatabase;
let registry: NpmRegistryStandIn;
let checks: Checks;

beforeAll(async () => {
  database = await createTestDatabase("pglite");
  registry = await startNpmRegistryStandIn([
    {
      name: "sum-lite",
      version: "1.0.0",
      files: { "index.js": "module.exports = (xs) => xs.reduce((a, b) => a + b, 0);\n" },
    },
    {
      name: "sum-lite",
      version: "1.0.1",
      files: { "index.js": "module.exports = (xs) => xs.reduce((a, b) => a + b, 0);\n" },
    },
  ]);
  const root = tempDir("nm-checks-room-");
  checks = {
    runner: new CommandRunner({ sandbox: new BubblewrapSandbox(), scratchDir: root, concurrency: 2 }),
    cache: new SetupCache(join(root, "cache"), 1024 * 1024 * 1024),
    registries: [parseEgressRule(`127.0.0.1:${registry.port}`)],
    scratchDir: root,
  };
}, 60_000);

afterAll(async () => {
  await registry.close();
  await database.dispose();
  removeTempDirs();
});

const NODE_CONFIG = (registryUrl: string) => `
checks:
  setup:
    - { run: "npm install --registry ${registryUrl} --ignore-scripts --no-audit --no-fund", timeout: 2m }
  commands:
    - { name: tests, run: "node --test" }
`;

const LAST =
  "const sum = require('sum-lite');\nexports.total = (xs) => sum(xs);\nexports.last = (xs) => xs[xs.length];\n";
const LAST_FIXED = LAST.replace("xs[xs.length]", "xs[xs.length - 1]");
const LAST_TEST =
  "const t = require('node:test'); const a = require('node:assert'); const { total } = require('./lib.js');\nt.test('total', () => a.strictEqual(total([1, 2, 3]), 6));\n";

async function nodeRepo(depVersion = "1.0.0") {
  const origin = createOrigin();
  const pkg = (v: string) => JSON.stringify({ name: "demo", version: "1.0.0", dependencies: { "sum-lite": v } });
  const base = origin.commit({ "package.json": pkg("1.0.0"), "lib.js": LAST_FIXED, "lib.test.js": LAST_TEST }, "base");
  origin.push("main");
  git(origin.work, "checkout", "-q", "-b", "feature");
  const head = origin.commit(
    { "lib.js": LAST, ...(depVersion === "1.0.0" ? {} : { "package.json": pkg(depVersion) }) },
    "pr",
  );
  origin.push("feature");
  return { origin, base, head };
}

async function context(origin: { bare: string }, base: string, head: string, configYaml: string, pr: number) {
  const run = await upsertRun(database.handle.db, {
    installationId: 1,
    repositoryId: 777,
    repositoryFullName: "octo/demo",
    cloneUrl: origin.bare,
    prNumber: pr,
    baseRef: "main",
    baseSha: base,
    headRef: "feature",
    headSha: head,
  });
  const workspace = new GitWorkspace(join(tempDir("nm-ws-"), "ws"));
  await workspace.ensure();
  await workspace.fetch(origin.bare, [base, head]);
  const deps = {
    db: database.handle.db,
    log: pino({ level: "silent" }),
    workspace: () => workspace,
    checks,
  } as unknown as PipelineDeps;
  const { config, problems } = parseRepoConfig(configYaml);
  expect(problems).toEqual([]);
  return { deps, ctx: runContext(database.handle.db, run, {} as GitHubClient, config), run };
}

async function prepared(c: Awaited<ReturnType<typeof context>>, sha: string): Promise<PreparedHead> {
  const head = await prepareHead(c.deps, c.ctx, sha, { phase: "review" });
  if ("unavailable" in head) throw new Error(head.unavailable);
  return head;
}

describe("a Node project (real bwrap, npm from a registry stand-in)", () => {
  it("sets up once from the base's own tree, reuses it, runs the checks, and reads reproducers", async () => {
    const { origin, base, head } = await nodeRepo();
    const c = await context(origin, base, head, NODE_CONFIG(registry.url), 1);

    const first = await prepared(c, head);
    expect(first.setup).toEqual({ status: "ran", scope: "base" });
    expect(readdirSync(first.layers[0]!)).toContain("node_modules");
    const second = await prepared(c, head);
    expect(second.setup).toEqual({ status: "cached", scope: "base" });

    const [tests] = await runChecks(c.deps, c.ctx, second, { phase: "review" });
    expect(tests).toMatchObject({ name: "tests", outcome: "passed", exitCode: 0 });

    const test = (expectation: string) => ({
      files: [
        {
          path: "repro/last.test.js",
          content: `const t = require('node:test'); const a = require('node:assert'); const { last } = require('../lib.js');\nt.test('last', () => a.strictEqual(last([1, 2, 3]), ${expectation}));\n`,
        },
      ],
      command: "node --test repro/",
    });
    const reproduced = await runReproducer(
      c.deps,
      c.ctx,
      second,
      { ...test("3"), expect: "undefined" },
      { phase: "review" },
    );
    expect(reproduced).toMatchObject({ outcome: "reproduced", why: "it exited 1" });
    const passes = await runReproducer(c.deps, c.ctx, second, test("undefined"), { phase: "review" });
    expect(passes).toMatchObject({ outcome: "not-reproduced", why: "it passed" });
    const broken = await runReproducer(
      c.deps,
      c.ctx,
      second,
      { files: [], command: "no-such-runner repro/" },
      { phase: "review" },
    );
    expect(broken).toMatchObject({ outcome: "broken", why: "its command could not run (exit 127)" });
    const wrongFailure = await runReproducer(
      c.deps,
      c.ctx,
      second,
      { ...test("3"), expect: "TypeError" },
      { phase: "review" },
    );
    expect(wrongFailure.outcome).toBe("broken");

    const rows = await listRunExecutions(database.handle.db, c.run.id);
    expect(rows.map((r) => [r.kind, r.outcome, r.cached])).toEqual([
      ["setup", "passed", false],
      ["setup", "passed", true],
      ["check", "passed", false],
      ["reproducer", "reproduced", false],
      ["reproducer", "not-reproduced", false],
      ["reproducer", "broken", false],
      ["reproducer", "broken", false],
    ]);
    expect(rows[3]!.outputTail).toContain("undefined");
    await first.dispose();
    await second.dispose();
  }, 180_000);

  it("a PR whose setup inputs differ from the base's gets a setup of its own, never the base's", async () => {
    const { origin, base, head } = await nodeRepo("1.0.1");
    const c = await context(origin, base, head, NODE_CONFIG(registry.url), 2);
    const prepared1 = await prepared(c, head);
    expect(prepared1.setup).toEqual({ status: "ran", scope: `run-${c.run.id}` });
    await prepared1.dispose();
  }, 180_000);
});

describe("a Python project (real bwrap, unittest, no setup)", () => {
  it("runs its checks and a reproducer with the interpreter under /usr", async () => {
    const origin = createOrigin();
    const base = origin.commit(
      {
        "stats.py": "def mean(xs):\n    return sum(xs) / len(xs)\n",
        "test_stats.py":
          "import unittest\nfrom stats import mean\nclass T(unittest.TestCase):\n    def test_mean(self):\n        self.assertEqual(mean([2, 4]), 3)\n",
      },
      "base",
    );
    origin.push("main");
    git(origin.work, "checkout", "-q", "-b", "feature");
    const head = origin.commit({ "stats.py": "def mean(xs):\n    return sum(xs) / (len(xs) - 1)\n" }, "pr");
    origin.push("feature");
    const c = await context(
      origin,
      base,
      head,
      "checks:\n  commands:\n    - { name: tests, run: python3 -m unittest -q }\n",
      3,
    );
    const prepared1 = await prepared(c, head);
    expect(prepared1.setup).toEqual({ status: "none" });
    const [tests] = await runChecks(c.deps, c.ctx, prepared1, { phase: "review" });
    expect(tests).toMatchObject({ outcome: "failed", exitCode: 1 });
    expect(tests!.output).toContain("AssertionError: 6.0 != 3");
    const reproduced = await runReproducer(
      c.deps,
      c.ctx,
      prepared1,
      {
        files: [
          {
            path: "test_repro.py",
            content:
              "import unittest\nfrom stats import mean\nclass R(unittest.TestCase):\n    def test_one(self):\n        self.assertEqual(mean([5]), 5)\n",
          },
        ],
        command: "python3 -m unittest -q test_repro",
        expect: "ZeroDivisionError",
      },
      { phase: "review" },
    );
    expect(reproduced.outcome).toBe("reproduced");
    await prepared1.dispose();
  }, 120_000);
});
