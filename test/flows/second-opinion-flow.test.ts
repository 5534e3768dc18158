import { describe, expect, it } from "vitest";
import { BubblewrapSandbox } from "../../src/agents/sandbox/bubblewrap-sandbox.js";
import { FlowFixture } from "../helpers/flow-fixture.js";
import { useFlowDatabase } from "../helpers/use-flow-database.js";

/**
 * `review.second_opinion`: the fake agent plays the reviewer and, in a session of its own, the second opinion
 * (role verifier, trigger second-opinion); the app posts what it confirmed and keeps what it refuted as a note.
 */

let fx: FlowFixture;
const database = useFlowDatabase(() => fx);

const PROJECT = {
  "lib.js": "exports.total = (xs) => xs.reduce((a, b) => a + b, 0);\nexports.last = (xs) => xs[xs.length];\n",
};
const REAL = {
  path: "lib.js",
  line: 2,
  severity: "error",
  action: "auto-fix",
  title: "last() reads past the end",
  body: "`xs[xs.length]` is always undefined.",
};
const MISTAKEN = {
  path: "lib.js",
  line: 1,
  severity: "error",
  action: "auto-fix",
  title: "total() drops the first element",
  body: "The reduce starts from the second element.",
};
const MINOR = { ...REAL, severity: "warning", title: "last() has no test", body: "Add one." };
const reviewer = (findings: unknown[]) => ({
  role: "reviewer",
  answer: { summary: "Findings.", findings, resolved: [] },
});
const secondOpinion = (opinions: unknown) => ({ role: "verifier", match: "second opinion", answer: opinions });

describe("a second opinion on blocking findings", () => {
  it("posts what it confirmed, marked so; keeps what it refuted as a note with both views; asks nothing of a warning", async () => {
    fx = await FlowFixture.start(database.handle, { configYaml: "review:\n  second_opinion: fake\n" });
    const head = await fx.open(PROJECT, [
      reviewer([REAL, MISTAKEN, MINOR]),
      secondOpinion({
        opinions: [
          { id: "NM-1", verdict: "confirm", reason: "xs[xs.length] is past the end of every array." },
          { id: "NM-2", verdict: "refute", reason: "reduce with an initial value 0 visits every element." },
        ],
      }),
    ]);

    const asked = fx.app.agentCalls().filter((c) => c.role === "verifier");
    expect(asked.map((c) => c.prompt.slice(0, 80))).toHaveLength(1);
    expect(asked[0]!.prompt).toContain("NM-1 [error] lib.js:2 — last() reads past the end");
    expect(asked[0]!.prompt).toContain("NM-2 [error] lib.js:1 — total() drops the first element");
    expect(asked[0]!.prompt).not.toContain("NM-3"); // a warning does not block: not asked

    expect(fx.github.reviews).toHaveLength(1);
    const posted = fx.github.reviews[0]!;
    const bodies = posted.comments.map((c: { body: string }) => c.body);
    expect(bodies.map((b: string) => /no-mistakes:(NM-\d+)/.exec(b)![1]).sort()).toEqual(["NM-1", "NM-3"]);
    expect(bodies.find((b: string) => b.includes("NM-1"))).toContain(
      "**☑️ Confirmed by a second opinion** (fake, in a session of its own): xs[xs.length] is past the end of every array.",
    );
    expect(posted.body).toContain(
      "1 finding was refuted by a second opinion (fake) and kept as a note in the summary, with both views, not raised.",
    );

    const summary = fx.summary();
    expect(summary).toContain("**Refuted by a second opinion**");
    expect(summary).toContain("total() drops the first element (NM-2)");
    expect(summary).toContain("  - the reviewer: The reduce starts from the second element.");
    expect(summary).toContain("  - fake: reduce with an initial value 0 visits every element.");

    const ledger = await fx.findings();
    expect(ledger.map((f) => [f.number, f.status, f.secondOpinion, f.secondOpinionBy])).toEqual([
      [1, "open", "confirmed", "fake"],
      [2, "note", "refuted", "fake"],
      [3, "open", null, null],
    ]);
    const check = [...fx.github.checkRuns.values()].find((c) => c.head_sha === head)!;
    expect(check.conclusion).toBe("failure"); // NM-1 still blocks
    expect(check.output.summary).toContain("1 note a second opinion refuted");
    // its turn is metered like any other: a verifier turn of its own, started fresh
    const turns = await fx.turns();
    expect(turns.map((t) => [t.role, t.trigger, t.agent, t.sessionMode])).toContainEqual([
      "verifier",
      "second-opinion",
      "fake",
      "started",
    ]);
  });

  it("posts the findings as the reviewer gave them when the second opinion's answer cannot be read, or names an agent without a key", async () => {
    fx = await FlowFixture.start(database.handle, { configYaml: "review:\n  second_opinion: fake\n" });
    await fx.open(PROJECT, [reviewer([REAL, MISTAKEN]), secondOpinion({ verdicts: "all fine" })]);
    expect((await fx.findings()).map((f) => [f.status, f.secondOpinion])).toEqual([
      ["open", null],
      ["open", null],
    ]);
    await fx.stop();

    fx = await FlowFixture.start(database.handle, { configYaml: "review:\n  second_opinion: codex\n" });
    await fx.open(PROJECT, [reviewer([REAL])]);
    expect(fx.app.agentCalls().filter((c) => c.role === "verifier")).toHaveLength(0);
    expect(fx.github.reviews[0]!.body).toContain(
      "`review.second_opinion` names codex, which this app has no key for: the findings are posted as the reviewer gave them.",
    );
    expect((await fx.findings()).map((f) => f.status)).toEqual(["open"]);
  });

  it("is not asked of a finding its reproducer reproduced", async () => {
    const project = {
      ...PROJECT,
      "package.json": JSON.stringify({ name: "demo", version: "1.0.0" }),
    };
    const reproducer = {
      files: [
        {
          path: "repro/last.test.js",
          content:
            "const t = require('node:test'); const a = require('node:assert'); const lib = require('../lib.js');\nt.test('last', () => a.strictEqual(lib.last([1, 2, 3]), 3));\n",
        },
      ],
      command: "node --test repro/last.test.js",
    };
    fx = await FlowFixture.start(
      database.handle,
      {
        configYaml:
          "review:\n  second_opinion: fake\nchecks:\n  commands:\n    - { name: tests, run: node --test }\nverify:\n  blocking: keep\n",
      },
      { sandbox: new BubblewrapSandbox() },
    );
    await fx.open(project, [
      reviewer([{ ...REAL, reproducer }, MISTAKEN]),
      secondOpinion({ opinions: [{ id: "NM-2", verdict: "confirm", reason: "yes" }] }),
    ]);
    const asked = fx.app.agentCalls().filter((c) => c.role === "verifier");
    expect(asked).toHaveLength(1);
    expect(asked[0]!.prompt).not.toContain("NM-1 [error]");
    expect(asked[0]!.prompt).toContain("NM-2 [error]");
    expect((await fx.findings()).map((f) => [f.number, f.reproduction, f.secondOpinion])).toEqual([
      [1, "reproduced", null],
      [2, null, "confirmed"],
    ]);
  });
});
