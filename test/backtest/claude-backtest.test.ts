import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runBacktest } from "../../src/backtest/run-backtest.js";
import { messagesText, startFakeAnthropicServer } from "../helpers/fake-anthropic-server.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { F1, makeRepo, options, WIDGETS } from "./backtest-world.js";

afterAll(() => removeTempDirs());

describe("backtest with the real Claude Code CLI in its sandbox (against a fake model server)", () => {
  it("reviews with the configured agent and asks the same agent, in a fresh session, to judge", async () => {
    const model = await startFakeAnthropicServer();
    try {
      model.setResponder(({ body }) => {
        const text = messagesText(body);
        if (text.includes("<real_issue>"))
          return {
            text: JSON.stringify({ same: text.includes("Unchecked index"), confidence: 0.9, reason: "same bug" }),
          };
        if (text.includes("Add parser"))
          return { text: JSON.stringify({ summary: "One bug.", findings: [F1], resolved: [] }) };
        return { text: JSON.stringify({ summary: "Nothing.", findings: [], resolved: [] }) };
      });
      const root = tempDir("nm-backtest-claude-");
      makeRepo(join(root, "clone"));
      writeFileSync(
        join(root, "golden.json"),
        JSON.stringify([
          {
            url: `https://github.com/${WIDGETS}/pull/1`,
            comments: [{ comment: "tokens[i + 1] is read out of range", severity: "High" }],
          },
        ]),
      );
      const report = await runBacktest(
        options(join(root, "clone"), join(root, "out"), [{ label: "A", env: {} }], {
          golden: join(root, "golden.json"),
        }),
        {
          env: {
            PATH: process.env.PATH,
            HOME: root,
            AGENT: "claude",
            ANTHROPIC_API_KEY: "sk-ant-backtest-test",
            ANTHROPIC_BASE_URL: model.url,
            AGENT_TIMEOUT: "90s",
          },
          print: () => {},
          progress: () => {},
        },
      );
      const a = report.configurations[0]!;
      expect(a.failures).toEqual([]);
      expect(a.describe).toBe("claude, the clone's .github/no-mistakes.yml");
      expect(a.prs[0]!.findings.map((f) => [f.id, f.title, f.placement])).toEqual([
        ["NM-1", "Unchecked index", "inline"],
      ]);
      expect([a.summary.precision, a.summary.recall]).toEqual([1, 1]);
      // Two conversations: the reviewer's and the judge's, each started fresh (the judge's prompt stands alone).
      const judged = model.mainCalls().filter((b) => messagesText(b).includes("<real_issue>"));
      expect(judged.length).toBeGreaterThanOrEqual(1);
      expect(messagesText(judged[0]!)).not.toContain("Add parser");
      expect(report.judge).toMatchObject({ asked: 1, cached: 0 });
    } finally {
      await model.close();
    }
  }, 240_000);
});
