import { describe, expect, it } from "vitest";
import { listRunExecutions } from "../../src/db/executions.js";
import { useClaudeFlow } from "../helpers/claude-flow.js";
import { messagesText } from "../helpers/fake-anthropic-server.js";

const flow = useClaudeFlow({ checks: true });

const LIB = "exports.last = (xs) => xs[xs.length];\n";
const REPRODUCER = {
  files: [
    {
      path: "repro/last.test.js",
      content:
        "const t = require('node:test'); const a = require('node:assert'); const { last } = require('../lib.js');\nt.test('last', () => a.strictEqual(last([1, 2, 3]), 3));\n",
    },
  ],
  command: "node --test repro/",
  expect: "undefined !== 3",
};

describe("a review with the real Claude Code CLI writing a reproducer", () => {
  it("the CLI is asked for reproducers, the scripted model answers with one, and the app (not the model) runs it: posted as reproduced", async () => {
    const { fx, model } = flow;
    fx.github.configYaml = "checks:\n  commands:\n    - { name: tests, run: node --test }\n";
    const head = fx.push(
      { "package.json": JSON.stringify({ name: "demo", version: "1.0.0" }), "lib.js": LIB },
      "add last()",
    );
    const finding = {
      path: "lib.js",
      line: 1,
      severity: "error",
      action: "auto-fix",
      title: "last() reads past the end",
      body: "`xs[xs.length]` is always undefined.",
      reproducer: REPRODUCER,
    };
    // the model claims its own outcome in the summary: the app never takes it
    model.enqueue({ text: JSON.stringify({ summary: "Reproduced it myself.", findings: [finding], resolved: [] }) });
    await fx.pullRequest("opened", head);

    const prompt = messagesText(model.mainCalls()[0]!);
    expect(prompt).toContain(`"reproducer" (optional; give one only when you can)`);
    expect(prompt).toContain("The app, not you, adds the files and runs the command in the repository root");

    const comment = fx.findingComment("NM-1").body;
    expect(comment).toContain(
      "**✅ Reproduced** — the app ran `node --test repro/` on this head and it failed: it exited 1.\n\n<details><summary>The end of its output</summary>",
    );
    expect(comment).toContain("undefined !== 3");
    const [finding1] = await fx.findings();
    expect(finding1).toMatchObject({ status: "open", severity: "error", reproduction: "reproduced" });
    expect(finding1!.reproducer).toEqual(REPRODUCER);
    const executions = await listRunExecutions(flow.database.handle.db, (await fx.run()).id);
    expect(executions.map((e) => [e.kind, e.phase, e.command, e.outcome, e.findingId])).toEqual([
      ["reproducer", "review", "node --test repro/", "reproduced", finding1!.id],
    ]);
    expect(fx.summary()).toContain("**1 open** (1 reproduced)");
  }, 120_000);
});
