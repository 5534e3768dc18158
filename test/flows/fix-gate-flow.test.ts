import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { BubblewrapSandbox } from "../../src/agents/sandbox/bubblewrap-sandbox.js";
import { listRunExecutions } from "../../src/db/executions.js";
import { listRefusals } from "../../src/db/refusals.js";
import { findings, type Reproducer } from "../../src/db/schema.js";
import { FlowFixture } from "../helpers/flow-fixture.js";
import { useFlowDatabase } from "../helpers/use-flow-database.js";

/**
 * Fixes that pass, on real projects the tests make: a Node one (node:test) and a Python one (unittest), each
 * with an off-by-one the PR brings. The reviewer's finding carries a reproducer (seeded in the ledger as the
 * review would leave it); the fake agent plays the fixer, and the repository's commands run for real in the
 * bubblewrap sandbox. A fix is pushed only when the reproducer passes on it and no check that passed before
 * it fails after it.
 */

let fx: FlowFixture;
const database = useFlowDatabase(() => fx);
const sandbox = new BubblewrapSandbox();

const WRITER = { login: "maintainer" };

const NODE_LIB = "exports.total = (xs) => xs.reduce((a, b) => a + b, 0);\nexports.last = (xs) => xs[xs.length];\n";
const NODE_FIXED = NODE_LIB.replace("xs[xs.length]", "xs[xs.length - 1]");
const NODE_PROJECT = {
  "package.json": JSON.stringify({ name: "demo", version: "1.0.0" }),
  "lib.js": NODE_LIB,
  "lib.test.js":
    "const t = require('node:test'); const a = require('node:assert'); const { total } = require('./lib.js');\nt.test('total', () => a.strictEqual(total([1, 2, 3]), 6));\n",
};
const NODE_REPRODUCER: Reproducer = {
  files: [
    {
      path: "repro/last.test.js",
      content:
        "const t = require('node:test'); const a = require('node:assert'); const { last } = require('../lib.js');\nt.test('last', () => a.strictEqual(last([1, 2, 3]), 3));\n",
    },
  ],
  command: "node --test repro/",
};
const NODE_CHECKS = "checks:\n  commands:\n    - { name: tests, run: node --test }\n";

const LAST_FINDING = {
  path: "lib.js",
  line: 2,
  severity: "error",
  action: "auto-fix",
  title: "last() reads past the end",
  body: "`xs[xs.length]` is always undefined.",
};

/**
 * The PR (the project on top of the base) opened and reviewed with NM-1 on its off-by-one, whose reproducer is
 * in the ledger as the review leaves it (reproduced); returns the PR's head.
 */
async function openReviewed(
  project: Record<string, string>,
  configYaml: string,
  finding: Record<string, unknown>,
  reproducer: Reproducer,
  reproduction = "reproduced",
  app: { sandbox?: BubblewrapSandbox } = { sandbox },
): Promise<string> {
  fx = await FlowFixture.start(database.handle, { permissions: { maintainer: "write" }, configYaml }, app);
  const head = await fx.open(project, [
    { role: "reviewer", answer: { summary: "One bug.", findings: [finding], resolved: [] } },
  ]);
  const run = await fx.run();
  await database.handle.db
    .update(findings)
    .set({ reproducer, reproduction })
    .where(and(eq(findings.runId, run.id), eq(findings.number, 1)));
  return head;
}

/** `/no-mistakes fix` by a writer, with the fake agent playing `steps`. */
async function fix(steps: unknown[]): Promise<void> {
  fx.app.scenario(steps);
  await fx.comment("/no-mistakes fix", WRITER);
}

/** The fixer answering that it fixed NM-1, leaving `lib` (and `more` files). */
function fixer(path: string, content: string, extra: Record<string, unknown> = {}) {
  return { role: "fixer", edits: [{ path, content }], answer: { summary: "Fixed.", fixed: ["NM-1"] }, ...extra };
}

/** What the app ran in the run: [phase, kind, name, outcome], sorted (checks and reproducers run at once). */
async function executions(): Promise<string[][]> {
  return (await listRunExecutions(database.handle.db, (await fx.run()).id))
    .map((e) => [e.phase, e.kind, e.name, e.outcome])
    .sort((a, b) => a.join(" ").localeCompare(b.join(" ")));
}

/** What the app refused in this PR, oldest first: [kind, reason with the commit as `<sha>`]. */
async function refusals(): Promise<[string, string][]> {
  return (await listRefusals(database.handle.db))
    .filter((r) => r.prNumber === fx.pr)
    .reverse()
    .map((r) => [r.kind, r.reason.replace(/\b[0-9a-f]{7}\b/, "<sha>")]);
}

describe("a Node project (node:test): the fix is pushed only when its reproducer passes", () => {
  it("a wrong fix: the reproducer still fails — nothing pushed, the reply names the command with its output; the fixer's second round, in its session, fails too: stop", async () => {
    const head = await openReviewed(NODE_PROJECT, NODE_CHECKS, LAST_FINDING, NODE_REPRODUCER);
    const wrong = NODE_LIB.replace("xs[xs.length]", "xs[xs.length] ?? xs[0]");
    await fix([fixer("lib.js", wrong)]);

    expect(fx.remote.remoteSha("refs/heads/feature")).toBe(head);
    const replies = fx.replies();
    const [first, second] = replies.slice(-2);
    expect(first).toMatch(/^@maintainer The fix [0-9a-f]{7} was not pushed to `feature`: /);
    expect(first).toContain("NM-1's reproducer still fails: `node --test repro/` — it exited 1. Its output ends:");
    expect(first).toContain("Expected values to be strictly equal:");
    expect(first).toContain("The fixer gets one more round with this failure.");
    expect(second).toMatch(/^@maintainer The fix was made but not pushed to `feature`: /);
    expect(second).toContain("NM-1's reproducer still fails: `node --test repro/` — it exited 1.");
    expect(second).toContain(
      "The fixer's second round does not pass either, so the fix stops here; nothing was pushed.",
    );
    expect(second).toContain("+exports.last = (xs) => xs[xs.length] ?? xs[0];");

    // the second round resumed the fixer's session, told why its fix was not pushed
    const fixers = fx.app.agentCalls().filter((c) => c.role === "fixer");
    expect(fixers).toHaveLength(2);
    expect(fixers[1]).toMatchObject({ sessionAsked: fixers[0]!.sessionReturned, resumed: true });
    expect(fixers[1]!.prompt).toContain("Your previous fix was not pushed");
    expect(fixers[1]!.prompt).toContain(
      "<failure>\nNM-1's reproducer still fails: `node --test repro/` — it exited 1.",
    );
    expect(fixers[1]!.prompt).toContain("Expected values to be strictly equal:");
    expect(fixers[0]!.prompt).toContain("Its reproducer (fails now, must pass after the fix): `node --test repro/`");

    // both rounds ran on their commit, after the fix; every check passed there, so the tip's never ran
    expect(await executions()).toEqual([
      ["after", "check", "tests", "passed"],
      ["after", "check", "tests", "passed"],
      ["after", "reproducer", "node --test repro/", "reproduced"],
      ["after", "reproducer", "node --test repro/", "reproduced"],
    ]);
    expect(await refusals()).toEqual([
      [
        "fix_unproven",
        "fix <sha> not pushed: NM-1's reproducer still fails (node --test repro/: it exited 1) (asked by maintainer)",
      ],
      [
        "fix_unproven",
        "fix <sha> not pushed: NM-1's reproducer still fails (node --test repro/: it exited 1). The fixer's second round does not pass either, so the fix stops here (asked by maintainer)",
      ],
    ]);
    expect((await fx.findings()).map((f) => f.status)).toEqual(["open"]);
  }, 120_000);

  it("a fix that breaks another test: the check that passed before fails after — nothing pushed, the reply names the check; with no fix round left, no second round", async () => {
    const head = await openReviewed(
      NODE_PROJECT,
      `${NODE_CHECKS}fix:\n  max_rounds: 1\n`,
      LAST_FINDING,
      NODE_REPRODUCER,
    );
    const breaking = NODE_FIXED.replace("(a, b) => a + b, 0", "(a, b) => a + b, 1");
    await fix([fixer("lib.js", breaking)]);

    expect(fx.remote.remoteSha("refs/heads/feature")).toBe(head);
    const reply = fx.replies().at(-1)!;
    expect(reply).toMatch(/^@maintainer The fix was made but not pushed to `feature`: /);
    expect(reply).toContain(
      "The check `tests` passed before the fix and fails after it: `node --test` — it exited 1. Its output ends:",
    );
    expect(reply).toContain("7 !== 6");
    expect(reply).not.toContain("reproducer still fails");
    expect(reply).toContain("No second round: this PR has used all 1 fix rounds (fix.max_rounds); nothing was pushed.");
    expect(fx.app.agentCalls().filter((c) => c.role === "fixer")).toHaveLength(1);
    // the tip the fixer started from ran its checks too, once one failed on the fix
    expect(await executions()).toEqual([
      ["after", "check", "tests", "failed"],
      ["after", "reproducer", "node --test repro/", "not-reproduced"],
      ["before", "check", "tests", "passed"],
    ]);
    expect(await refusals()).toEqual([
      [
        "fix_unproven",
        "fix <sha> not pushed: the check `tests` passed before the fix and fails after it (node --test: it exited 1). No second round: this PR has used all 1 fix rounds (fix.max_rounds) (asked by maintainer)",
      ],
    ]);
  }, 120_000);

  it("a right fix: pushed; the verifier is told the reproducer the app saw pass, and the thread's resolution cites it", async () => {
    const head = await openReviewed(NODE_PROJECT, NODE_CHECKS, LAST_FINDING, NODE_REPRODUCER);
    await fix([
      fixer("lib.js", NODE_FIXED),
      { role: "verifier", answer: { verdicts: [{ id: "NM-1", fixed: true, reason: "It reads the last element." }] } },
    ]);

    const pushed = fx.remote.remoteSha("refs/heads/feature");
    expect(pushed).not.toBe(head);
    expect(fx.remote.git(fx.remote.bare, "show", `${pushed}:lib.js`)).toBe(NODE_FIXED);
    const short = pushed.slice(0, 7);
    expect(fx.replies().at(-1)).toContain(
      `@maintainer Pushed \`${short}\` fixing NM-1.\n\nBefore the push:\n- NM-1's reproducer \`node --test repro/\` now passes.\n- Passing: \`tests\`.`,
    );
    const verifier = fx.app.agentCalls().find((c) => c.role === "verifier")!;
    expect(verifier.prompt).toContain("<passing-reproducers>\nNM-1: node --test repro/\n</passing-reproducers>");
    const nm1 = fx.findingComment("NM-1");
    expect(fx.github.sent("POST", `/comments/${nm1.id}/replies`).map((r) => r.body.body)).toEqual([
      `Resolved in ${short}: \`node --test repro/\` now passes. Confirmed by an independent check: It reads the last element.`,
    ]);
    expect((await fx.findings()).map((f) => [f.status, f.verification])).toEqual([["fixed", "confirmed"]]);
    expect(await executions()).toEqual([
      ["after", "check", "tests", "passed"],
      ["after", "reproducer", "node --test repro/", "not-reproduced"],
    ]);
    expect(await refusals()).toEqual([]);
  }, 120_000);

  it("a check that failed before the fix too is reported, not blamed: the push goes through", async () => {
    const todo = { ...NODE_PROJECT, "lib.js": `// TODO: more helpers\n${NODE_LIB}` };
    const head = await openReviewed(
      todo,
      `${NODE_CHECKS}    - { name: style, run: "! grep -n TODO lib.js" }\n`,
      LAST_FINDING,
      NODE_REPRODUCER,
    );
    await fix([fixer("lib.js", `// TODO: more helpers\n${NODE_FIXED}`)]);

    const pushed = fx.remote.remoteSha("refs/heads/feature");
    expect(pushed).not.toBe(head);
    expect(fx.replies().at(-1)).toContain(
      "- Passing: `tests`.\n- Failing, but not before the fix either, so not blamed on it: `style`.",
    );
    expect(await executions()).toEqual([
      ["after", "check", "style", "failed"],
      ["after", "check", "tests", "passed"],
      ["after", "reproducer", "node --test repro/", "not-reproduced"],
      ["before", "check", "style", "failed"],
      ["before", "check", "tests", "passed"],
    ]);
    expect(await refusals()).toEqual([]);
  }, 120_000);

  it("a reproducer that passed on the PR's head at the review proves nothing: it is not run on the fix, nor cited", async () => {
    const passedAlready: Reproducer = {
      ...NODE_REPRODUCER,
      files: [
        { path: "repro/last.test.js", content: NODE_REPRODUCER.files[0]!.content.replace("), 3)", "), undefined)") },
      ],
    };
    const head = await openReviewed(NODE_PROJECT, NODE_CHECKS, LAST_FINDING, passedAlready, "not-reproduced");
    await fix([fixer("lib.js", NODE_FIXED)]);

    expect(fx.remote.remoteSha("refs/heads/feature")).not.toBe(head);
    expect(fx.replies().at(-1)).not.toContain("reproducer");
    expect(await executions()).toEqual([["after", "check", "tests", "passed"]]);
  }, 120_000);

  it("fix.add_regression_tests: the reproducer's test is committed with the fix; a file the app will not push is left out, and said", async () => {
    const workflow = { path: ".github/workflows/repro.yml", content: "on: push\n" };
    const reproducer = { ...NODE_REPRODUCER, files: [...NODE_REPRODUCER.files, workflow] };
    const head = await openReviewed(
      NODE_PROJECT,
      `${NODE_CHECKS}fix:\n  add_regression_tests: true\n`,
      LAST_FINDING,
      reproducer,
    );
    await fix([fixer("lib.js", NODE_FIXED)]);

    const pushed = fx.remote.remoteSha("refs/heads/feature");
    expect(fx.remote.git(fx.remote.bare, "rev-parse", `${pushed}^`).trim()).toBe(head);
    const files = fx.remote.git(fx.remote.bare, "diff", "--name-only", head, pushed).trim().split("\n");
    expect(files).toEqual(["lib.js", "repro/last.test.js"]);
    expect(fx.remote.git(fx.remote.bare, "show", `${pushed}:repro/last.test.js`)).toBe(
      NODE_REPRODUCER.files[0]!.content,
    );
    expect(fx.remote.git(fx.remote.bare, "log", "-1", "--format=%an%n%B", pushed)).toContain(
      "Regression tests, the findings' reproducers:\n- repro/last.test.js (NM-1)",
    );
    const reply = fx.replies().at(-1)!;
    expect(reply).toContain("- Added as regression tests: `repro/last.test.js`.");
    expect(reply).toContain("- Not added as regression tests: `.github/workflows/repro.yml` (a workflow file).");
    expect(fx.app.agentCalls().find((c) => c.role === "fixer")!.prompt).toContain(
      "The app adds the reproducers' files to your commit as regression tests: do not add them yourself.",
    );
  }, 120_000);
});

describe("an app that runs no repository's commands (no sandbox for them)", () => {
  it("pushes as before, and says the checks were not run on the fix and why", async () => {
    const head = await openReviewed(NODE_PROJECT, NODE_CHECKS, LAST_FINDING, NODE_REPRODUCER, "reproduced", {});
    await fix([fixer("lib.js", NODE_FIXED)]);

    expect(fx.remote.remoteSha("refs/heads/feature")).not.toBe(head);
    expect(fx.replies().at(-1)).toContain(
      "\n\nBefore the push:\n- The repository's checks were not run on the fix: this app does not run repositories' commands.",
    );
    expect(await executions()).toEqual([]);
  });
});

describe("a Python project (unittest)", () => {
  const STATS = "def mean(xs):\n    return sum(xs) / (len(xs) - 1)\n\ndef total(xs):\n    return sum(xs)\n";
  const PROJECT = {
    "stats.py": STATS,
    "test_stats.py":
      "import unittest\nfrom stats import total\nclass T(unittest.TestCase):\n    def test_total(self):\n        self.assertEqual(total([2, 4]), 6)\n",
  };
  const REPRODUCER: Reproducer = {
    files: [
      {
        path: "test_repro.py",
        content:
          "import unittest\nfrom stats import mean\nclass R(unittest.TestCase):\n    def test_mean(self):\n        self.assertEqual(mean([2, 4]), 3)\n",
      },
    ],
    command: "python3 -m unittest -q test_repro",
  };
  const FINDING = { ...LAST_FINDING, path: "stats.py", line: 2, title: "mean() divides by one too few" };

  it("the first round's fix still fails its reproducer; the second round, told why, passes and is pushed", async () => {
    const head = await openReviewed(
      PROJECT,
      "checks:\n  commands:\n    - { name: tests, run: python3 -m unittest -q }\n",
      FINDING,
      REPRODUCER,
    );
    await fix([
      fixer("stats.py", STATS.replace("(len(xs) - 1)", "(len(xs) - 0.5)"), { times: 1 }),
      fixer("stats.py", STATS.replace("(len(xs) - 1)", "len(xs)"), { match: "Your previous fix was not pushed" }),
    ]);

    const [blocked, pushedReply] = fx.replies().slice(-2);
    expect(blocked).toContain("NM-1's reproducer still fails: `python3 -m unittest -q test_repro` — it exited 1.");
    expect(blocked).toContain("AssertionError: 4.0 != 3");
    expect(blocked).toContain("The fixer gets one more round with this failure.");
    const pushed = fx.remote.remoteSha("refs/heads/feature");
    expect(fx.remote.git(fx.remote.bare, "rev-parse", `${pushed}^`).trim()).toBe(head);
    expect(fx.remote.git(fx.remote.bare, "show", `${pushed}:stats.py`)).toContain("return sum(xs) / len(xs)");
    expect(pushedReply).toContain(
      `Pushed \`${pushed.slice(0, 7)}\` fixing NM-1.\n\nBefore the push:\n- NM-1's reproducer \`python3 -m unittest -q test_repro\` now passes.`,
    );
    expect(fx.app.agentCalls().filter((c) => c.role === "fixer")[1]!.prompt).toContain("AssertionError: 4.0 != 3");
    expect(await executions()).toEqual([
      ["after", "check", "tests", "passed"],
      ["after", "check", "tests", "passed"],
      ["after", "reproducer", "python3 -m unittest -q test_repro", "not-reproduced"],
      ["after", "reproducer", "python3 -m unittest -q test_repro", "reproduced"],
    ]);
    expect(await refusals()).toEqual([
      [
        "fix_unproven",
        "fix <sha> not pushed: NM-1's reproducer still fails (python3 -m unittest -q test_repro: it exited 1) (asked by maintainer)",
      ],
    ]);
  }, 120_000);
});
