import { describe, expect, it } from "vitest";
import { BubblewrapSandbox } from "../../src/agents/sandbox/bubblewrap-sandbox.js";
import { listRunExecutions } from "../../src/db/executions.js";
import { FlowFixture } from "../helpers/flow-fixture.js";
import { useFlowDatabase } from "../helpers/use-flow-database.js";

/**
 * The reviewer's reproducers, on real projects the tests make: a Node one (node:test) and a Python one
 * (unittest), each with an off-by-one the PR brings. The fake agent plays the reviewer and answers with
 * findings carrying reproducers; the app runs them for real in the bubblewrap sandbox and posts by what it saw.
 */

let fx: FlowFixture;
const database = useFlowDatabase(() => fx);
const sandbox = new BubblewrapSandbox();

const NODE_LIB = "exports.total = (xs) => xs.reduce((a, b) => a + b, 0);\nexports.last = (xs) => xs[xs.length];\n";
const NODE_PROJECT = {
  "package.json": JSON.stringify({ name: "demo", version: "1.0.0" }),
  "lib.js": NODE_LIB,
  "lib.test.js":
    "const t = require('node:test'); const a = require('node:assert'); const { total } = require('./lib.js');\nt.test('total', () => a.strictEqual(total([1, 2, 3]), 6));\n",
};
const NODE_CHECKS = "checks:\n  commands:\n    - { name: tests, run: node --test }\n";

/** A node:test file under repro/ asserting `assertion` on lib.js. */
function nodeTest(name: string, assertion: string) {
  return {
    path: `repro/${name}.test.js`,
    content: `const t = require('node:test'); const a = require('node:assert'); const lib = require('../lib.js');\nt.test('${name}', () => ${assertion});\n`,
  };
}

/** The true finding: last() reads past the end; its reproducer fails on the head. */
const TRUE_FINDING = {
  path: "lib.js",
  line: 2,
  severity: "error",
  action: "auto-fix",
  title: "last() reads past the end",
  body: "`xs[xs.length]` is always undefined.",
  reproducer: {
    files: [nodeTest("last", "a.strictEqual(lib.last([1, 2, 3]), 3)")],
    command: "node --test repro/last.test.js",
  },
};
/** A false finding: total() is right; its reproducer passes. */
const FALSE_FINDING = {
  path: "lib.js",
  line: 1,
  severity: "error",
  action: "auto-fix",
  title: "total() drops the first element",
  body: "The reduce starts from the second element.",
  reproducer: {
    files: [nodeTest("total", "a.strictEqual(lib.total([1, 2, 3]), 6)")],
    command: "node --test repro/total.test.js",
  },
};
/** A finding whose reproducer cannot run (its runner is not installed). */
const BROKEN_FINDING = {
  path: "lib.js",
  line: 1,
  severity: "error",
  action: "ask-user",
  title: "total() of an empty list",
  body: "Check what an empty list gives.",
  reproducer: { files: [nodeTest("empty", "a.strictEqual(lib.total([]), 0)")], command: "mocha repro/" },
};

/** Opens the PR with `project` and the reviewer answering `findings`; waits for the review. */
async function openWith(
  project: Record<string, string>,
  configYaml: string,
  findings: unknown[],
  app: { sandbox?: BubblewrapSandbox } = { sandbox },
): Promise<string> {
  fx = await FlowFixture.start(database.handle, { configYaml }, app);
  return fx.open(project, [{ role: "reviewer", answer: { summary: "Findings.", findings, resolved: [] } }]);
}

/** What the app ran in the run: [phase, kind, name, outcome], sorted. */
async function executions(): Promise<string[][]> {
  return (await listRunExecutions(database.handle.db, (await fx.run()).id))
    .map((e) => [e.phase, e.kind, e.name, e.outcome])
    .sort((a, b) => a.join(" ").localeCompare(b.join(" ")));
}

/** The one review posted: its body and its inline comments' bodies by the finding they carry. */
function review(): { body: string; comments: Map<string, string> } {
  expect(fx.github.reviews).toHaveLength(1);
  const posted = fx.github.reviews[0]!;
  const comments = new Map<string, string>();
  for (const c of posted.comments) comments.set(/no-mistakes:(NM-\d+)/.exec(c.body)![1]!, c.body);
  return { body: posted.body, comments };
}

/** The head's check run as it ended. */
function checkRun(head: string): { title: string; summary: string; conclusion?: string } {
  const run = [...fx.github.checkRuns.values()].find((c) => c.head_sha === head)!;
  return { ...run.output, conclusion: run.conclusion };
}

describe("a Node project (node:test): findings posted by what their reproducers showed", () => {
  it("a true finding is posted as reproduced with its output; a false one is a note; a broken one is posted unverified, demoted", async () => {
    const head = await openWith(NODE_PROJECT, NODE_CHECKS, [TRUE_FINDING, FALSE_FINDING, BROKEN_FINDING]);

    const reviewer = fx.app.agentCalls().find((c) => c.role === "reviewer")!;
    expect(reviewer.prompt).toContain(`"reproducer" (optional; give one only when you can)`);
    expect(reviewer.prompt).toContain("with no network, within 120 s");
    expect(reviewer.prompt).toContain("An error without a reproducer that fails is posted as an unverified warning.");

    const { body, comments } = review();
    expect([...comments.keys()].sort()).toEqual(["NM-1", "NM-3"]);
    expect(body).toContain(
      "1 finding was kept as a note in the summary, not raised: 1 whose reproducer passed on this head.",
    );
    const nm1 = comments.get("NM-1")!;
    expect(nm1).toContain(
      "**✅ Reproduced** — the app ran `node --test repro/last.test.js` on this head and it failed: it exited 1.\n\n<details><summary>The end of its output</summary>",
    );
    expect(nm1).toContain("Expected values to be strictly equal:");
    expect(nm1).toContain("undefined !== 3");
    expect(nm1).toMatch(/^\*\*🔴 error · NM-1 · /);
    const nm3 = comments.get("NM-3")!;
    expect(nm3).toMatch(/^\*\*🟡 warning · NM-3 · /);
    expect(nm3).toContain(
      "_Unverified: its reproducer `mocha repro/` did not run as a test (its command could not run (exit 127))._",
    );
    expect(nm3).toContain("_Unverified: raised as error, posted as warning because no reproducer showed it failing");

    const ledger = await fx.findings();
    expect(ledger.map((f) => [f.number, f.status, f.severity, f.reproduction, f.demotedFrom])).toEqual([
      [1, "open", "error", "reproduced", null],
      [2, "note", "error", "not-reproduced", null],
      [3, "open", "warning", "broken", "error"],
    ]);
    expect(ledger[0]!.reproducer).toEqual(TRUE_FINDING.reproducer);

    const summary = fx.summary();
    expect(summary).toContain("**2 open** (1 reproduced)");
    expect(summary).toContain("| NM-1 | 🔴 error | `lib.js:2` | last() reads past the end | open — reproduced |");
    expect(summary).toContain(
      "| NM-3 | 🟡 warning | `lib.js:1` | total() of an empty list | open — unverified, raised as error |",
    );
    expect(summary).toContain(
      "**Not reproduced** — the reviewer's reproducer passed on the head the app ran it on: kept here, not raised, not counted\n\n- `lib.js:1` 🔴 error — total() drops the first element (NM-2) · its reproducer `node --test repro/total.test.js` passed",
    );
    expect(summary).not.toContain("No <code>checks</code> configured");

    const check = checkRun(head);
    expect(check.title).toBe("2 open findings (1 error, 1 warning) · 1 reproduced");
    expect(check.conclusion).toBe("failure");
    expect(check.summary).toContain("1 note whose reproducer passed (not reproduced)");

    expect(await executions()).toEqual([
      ["review", "reproducer", "mocha repro/", "broken"],
      ["review", "reproducer", "node --test repro/last.test.js", "reproduced"],
      ["review", "reproducer", "node --test repro/total.test.js", "not-reproduced"],
    ]);
    const rows = await listRunExecutions(database.handle.db, (await fx.run()).id);
    const turn = (await fx.turns()).find((t) => t.role === "reviewer")!;
    expect(rows.every((e) => e.turnId === turn.id && e.headSha === head)).toBe(true);
    expect(rows.map((e) => e.findingId).sort()).toEqual(ledger.map((f) => f.id).sort());
  }, 120_000);

  it("a job retried after its review failed to post runs no reproducer again: each keeps its outcome, and the comment still shows it", async () => {
    fx = await FlowFixture.start(database.handle, { configYaml: NODE_CHECKS }, { sandbox });
    // the review's first read of the PR's comments, once the reproducers ran, fails: the job is retried
    fx.replaceStandIn({ configYaml: NODE_CHECKS, failOnce: [`GET /repos/octo-org/widgets/pulls/${fx.pr}/comments`] });
    await fx.open(NODE_PROJECT, [
      { role: "reviewer", answer: { summary: "Findings.", findings: [TRUE_FINDING, FALSE_FINDING, BROKEN_FINDING] } },
    ]);
    const reviewers = (await fx.turns()).filter((t) => t.role === "reviewer");
    expect(reviewers).toHaveLength(2);
    const rows = await listRunExecutions(database.handle.db, (await fx.run()).id);
    expect(rows.map((e) => e.turnId)).toEqual([reviewers[0]!.id, reviewers[0]!.id, reviewers[0]!.id]);
    const { comments } = review();
    expect([...comments.keys()].sort()).toEqual(["NM-1", "NM-3"]);
    expect(comments.get("NM-1")).toContain(
      "**✅ Reproduced** — the app ran `node --test repro/last.test.js` on this head and it failed: it exited 1.",
    );
    expect(comments.get("NM-1")).toContain("undefined !== 3");
    expect(comments.get("NM-3")).toContain("_Unverified: its reproducer `mocha repro/` did not run as a test._");
    expect((await fx.findings()).map((f) => [f.status, f.severity, f.reproduction])).toEqual([
      ["open", "error", "reproduced"],
      ["note", "error", "not-reproduced"],
      ["open", "warning", "broken"],
    ]);
    expect(await executions()).toEqual([
      ["review", "reproducer", "mocha repro/", "broken"],
      ["review", "reproducer", "node --test repro/last.test.js", "reproduced"],
      ["review", "reproducer", "node --test repro/total.test.js", "not-reproduced"],
    ]);
  }, 120_000);

  it("verify.blocking keep: an error with no reproducer is posted as the reviewer gave it", async () => {
    const plain = { ...BROKEN_FINDING, reproducer: undefined };
    await openWith(NODE_PROJECT, `${NODE_CHECKS}verify:\n  blocking: keep\n`, [plain]);
    const nm1 = review().comments.get("NM-1")!;
    expect(nm1).toMatch(/^\*\*🔴 error · NM-1 · /);
    expect(nm1).not.toContain("Unverified");
    expect((await fx.findings()).map((f) => [f.status, f.severity, f.demotedFrom])).toEqual([["open", "error", null]]);
    expect(fx.app.agentCalls()[0]!.prompt).not.toContain("An error without a reproducer");
    expect(await executions()).toEqual([]);
  }, 120_000);

  it("verify.blocking drop: an error nothing reproduced is not posted, and is listed as a note; a reproduced one is posted", async () => {
    const plain = { ...BROKEN_FINDING, reproducer: undefined };
    const head = await openWith(NODE_PROJECT, `${NODE_CHECKS}verify:\n  blocking: drop\n`, [TRUE_FINDING, plain]);
    const { body, comments } = review();
    expect([...comments.keys()]).toEqual(["NM-1"]);
    expect(body).toContain(
      "1 finding was kept as a note in the summary, not raised: 1 error nothing reproduced (`verify.blocking: drop`).",
    );
    expect((await fx.findings()).map((f) => [f.status, f.severity, f.demotedFrom])).toEqual([
      ["open", "error", null],
      ["note", "error", "error"],
    ]);
    expect(fx.app.agentCalls()[0]!.prompt).toContain("An error without a reproducer that fails is not posted.");
    expect(fx.summary()).toContain(
      "**Unverified errors** — no reproducer showed them failing (`verify.blocking: drop`): kept here, not raised, not counted\n\n- `lib.js:1` 🔴 error — total() of an empty list (NM-2)",
    );
    expect(checkRun(head).summary).toContain("1 note from errors nothing reproduced (`verify.blocking: drop`)");
  }, 120_000);

  it("a malformed reproducer is left out with a note; the finding and the answer are kept", async () => {
    const malformed = { ...TRUE_FINDING, reproducer: { files: "repro.js", command: "node repro.js" } };
    await openWith(NODE_PROJECT, `${NODE_CHECKS}verify:\n  blocking: keep\n`, [malformed]);
    const { body, comments } = review();
    expect([...comments.keys()]).toEqual(["NM-1"]);
    expect(body).toContain(
      "The reproducer given with “last() reads past the end” was left out (reproducer.files: expected a list); the finding is kept without it.",
    );
    expect((await fx.findings()).map((f) => [f.status, f.reproducer])).toEqual([["open", null]]);
    expect(await executions()).toEqual([]);
  }, 120_000);

  it("a setup that fails: one clear line, the review still posted as the reviewer gave it", async () => {
    const failing = `checks:\n  setup:\n    - { run: "echo no registry here >&2; exit 3" }\n  commands:\n    - { name: tests, run: node --test }\n`;
    const head = await openWith(NODE_PROJECT, failing, [TRUE_FINDING, BROKEN_FINDING]);
    const { body, comments } = review();
    expect([...comments.keys()].sort()).toEqual(["NM-1", "NM-2"]);
    const line =
      "The repository's setup (`checks.setup`) failed: it exited 3. No reproducer was run; findings are posted as the reviewer gave them.";
    expect(body).toContain(line);
    expect(fx.summary()).toContain(line);
    expect(checkRun(head).summary).toContain(line);
    expect(comments.get("NM-1")).not.toContain("Reproduced");
    expect((await fx.findings()).map((f) => [f.status, f.severity, f.reproduction])).toEqual([
      ["open", "error", null],
      ["open", "error", null],
    ]);
    expect(await executions()).toEqual([["review", "setup", "setup", "failed"]]);
  }, 120_000);

  it("a PR that changes .github/no-mistakes.yml changes nothing that runs: the base's config decides", async () => {
    const hostile = {
      ...NODE_PROJECT,
      ".github/no-mistakes.yml":
        "checks:\n  setup:\n    - { run: 'touch /tmp/pwned' }\nverify:\n  reproducers: false\n  blocking: keep\n",
    };
    await openWith(hostile, NODE_CHECKS, [TRUE_FINDING, BROKEN_FINDING]);
    expect(fx.app.agentCalls()[0]!.prompt).toContain(`"reproducer" (optional; give one only when you can)`);
    expect(await executions()).toEqual([
      ["review", "reproducer", "mocha repro/", "broken"],
      ["review", "reproducer", "node --test repro/last.test.js", "reproduced"],
    ]);
    // the base's default (demote), not the PR's keep
    expect((await fx.findings()).map((f) => f.severity)).toEqual(["error", "warning"]);
  }, 120_000);

  it("a reproducer reaching for the network, reading outside its checkout, or running past its time is broken, never reproduced", async () => {
    const network = {
      ...BROKEN_FINDING,
      title: "network",
      reproducer: {
        files: [],
        command: `node -e "require('http').get('http://example.com/',()=>{}).on('error',e=>{console.error(e.code);process.exit(1)})"`,
      },
    };
    const outside = {
      ...BROKEN_FINDING,
      line: 2,
      title: "outside",
      reproducer: { files: [], command: "cat ../../data/.env /root/.ssh/id_rsa" },
    };
    const slow = { ...TRUE_FINDING, title: "slow", reproducer: { files: [], command: "sleep 30; exit 1" } };
    await openWith(NODE_PROJECT, `${NODE_CHECKS}verify:\n  reproducer_timeout: 2s\n`, [network, outside, slow]);
    expect(await executions()).toEqual([
      ["review", "reproducer", "cat ../../data/.env /root/.ssh/id_rsa", "broken"],
      ["review", "reproducer", network.reproducer.command, "broken"],
      ["review", "reproducer", "sleep 30; exit 1", "broken"],
    ]);
    const { comments } = review();
    expect(comments.get("NM-1")).toContain("(it tried to reach the network (EAI_AGAIN)");
    expect(comments.get("NM-2")).toContain(
      '(it tried to read "../../data/.env", outside the checkout the sandbox shows)',
    );
    expect(comments.get("NM-3")).toContain("(it passed its time limit)");
    expect((await fx.findings()).map((f) => [f.severity, f.reproduction])).toEqual([
      ["warning", "broken"],
      ["warning", "broken"],
      ["warning", "broken"],
    ]);
  }, 120_000);
});

describe("with no checks configured", () => {
  it("nothing runs; the summary proposes a checks block read from the base branch (never the PR's), folded", async () => {
    fx = await FlowFixture.start(database.handle, { configYaml: "review:\n  fail_on: never\n" }, { sandbox });
    // the base branch is a Python project; the PR turns it into a Node one
    fx.pull = { baseSha: fx.remote.commit({ "pyproject.toml": "[project]\nname = 'demo'\n" }, "python base") };
    fx.remote.publish("main");
    await fx.open(NODE_PROJECT, [{ role: "reviewer", answer: { summary: "One.", findings: [TRUE_FINDING] } }]);
    expect(fx.app.agentCalls()[0]!.prompt).not.toContain('"reproducer"');
    expect(await executions()).toEqual([]);
    expect((await fx.findings()).map((f) => [f.severity, f.reproducer])).toEqual([["error", null]]);
    const summary = fx.summary();
    expect(summary).toContain(
      "<details><summary>No <code>checks</code> configured: a proposal read from this repository</summary>",
    );
    expect(summary).toContain(
      "```yaml\nchecks:\n  setup:\n    - run: python3 -m venv .venv\n    - run: .venv/bin/pip install -e .\n  commands:\n    - { name: tests, run: .venv/bin/python -m unittest }\n```",
    );
    expect(summary.split("No <code>checks</code> configured")).toHaveLength(2);
    expect(summary).not.toContain("npm");
  }, 120_000);

  it("an app that runs no repository's commands proposes nothing and asks for no reproducer", async () => {
    await openWith(NODE_PROJECT, NODE_CHECKS, [TRUE_FINDING], {});
    expect(fx.app.agentCalls()[0]!.prompt).not.toContain('"reproducer"');
    expect(fx.summary()).not.toContain("No <code>checks</code> configured");
    expect((await fx.findings()).map((f) => [f.severity, f.reproducer])).toEqual([["error", null]]);
    expect(review().comments.get("NM-1")).not.toContain("Unverified");
  }, 120_000);
});

describe("a Python project (unittest)", () => {
  const STATS = "def mean(xs):\n    return sum(xs) / (len(xs) - 1)\n\ndef total(xs):\n    return sum(xs)\n";
  const PROJECT = {
    "stats.py": STATS,
    "test_stats.py":
      "import unittest\nfrom stats import total\nclass T(unittest.TestCase):\n    def test_total(self):\n        self.assertEqual(total([2, 4]), 6)\n",
  };
  const unittestFile = (name: string, assertion: string) => ({
    path: `test_${name}.py`,
    content: `import unittest\nimport stats\nclass R(unittest.TestCase):\n    def test_it(self):\n        ${assertion}\n`,
  });

  it("the true finding is reproduced with its assertion, expect matched; the false one is a note; one failing without its predicted assertion is broken, demoted", async () => {
    const mean = {
      path: "stats.py",
      line: 2,
      severity: "error",
      action: "auto-fix",
      title: "mean() divides by one too few",
      body: "len(xs) - 1",
      reproducer: {
        files: [unittestFile("mean", "self.assertEqual(stats.mean([2, 4]), 3)")],
        command: "python3 -m unittest -q test_mean",
        expect: "AssertionError: 6.0 != 3",
      },
    };
    const total = {
      ...mean,
      line: 5,
      title: "total() is wrong",
      reproducer: {
        files: [unittestFile("total", "self.assertEqual(stats.total([2, 4]), 6)")],
        command: "python3 -m unittest -q test_total",
      },
    };
    // its test imports a module that is not there: it fails, but not with the assertion it predicted
    const broken = {
      ...mean,
      line: 4,
      title: "total() of nothing",
      reproducer: {
        files: [{ path: "test_nothing.py", content: "import unittest\nimport statz\n" }],
        command: "python3 -m unittest -q test_nothing",
        expect: "AssertionError",
      },
    };
    await openWith(PROJECT, "checks:\n  commands:\n    - { name: tests, run: python3 -m unittest -q }\n", [
      mean,
      total,
      broken,
    ]);
    const { comments } = review();
    expect([...comments.keys()]).toEqual(["NM-1", "NM-3"]);
    expect(comments.get("NM-1")).toContain("**✅ Reproduced** — the app ran `python3 -m unittest -q test_mean`");
    expect(comments.get("NM-1")).toContain("AssertionError: 6.0 != 3");
    expect(comments.get("NM-3")).toContain(
      '_Unverified: its reproducer `python3 -m unittest -q test_nothing` did not run as a test (it exited 1, but its output does not hold "AssertionError")._',
    );
    expect((await fx.findings()).map((f) => [f.status, f.severity, f.reproduction])).toEqual([
      ["open", "error", "reproduced"],
      ["note", "error", "not-reproduced"],
      ["open", "warning", "broken"],
    ]);
  }, 120_000);
});
