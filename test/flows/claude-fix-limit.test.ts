import { describe, expect, it } from "vitest";
import { DEFAULT_TURN_LIMITS } from "../../src/config/env/turn-limits.js";
import { useClaudeFlow } from "../helpers/claude-flow.js";
import { lastToolResult } from "../helpers/fake-anthropic-server.js";
import { LOOP_BUG_APP, LOOP_FINDING } from "../helpers/flow-fixture.js";

const flow = useClaudeFlow({
  permissions: { maintainer: "write" },
  limits: { ...DEFAULT_TURN_LIMITS, maxWorkspaceMb: 2 },
});

const BLOB = "x".repeat(900 * 1024);

describe("a fixer that writes past AGENT_MAX_WORKSPACE_MB (the real Claude Code CLI)", () => {
  it("is stopped, though it cleans up before it ends: nothing is pushed, and the thread says which limit", async () => {
    const { fx, model } = flow;
    const head = fx.push({ "src/app.ts": LOOP_BUG_APP }, "first");
    model.enqueue({ text: JSON.stringify({ summary: "One off-by-one.", findings: [LOOP_FINDING], resolved: [] }) });
    await fx.pullRequest("opened", head);

    // Four files of 900 KiB (the CLI's own transcript in its home, which holds them again, counts too), then,
    // after a pause, each emptied and the fix claimed: a turn whose end state is small, which crossed the limit
    // on its way.
    let workspace = "";
    const results: string[] = [];
    const first = model.mainCalls().length;
    model.setResponder(async ({ body, index: call }) => {
      const index = call - first;
      workspace ||= /Primary working directory: ([^\s\\]+)/.exec(JSON.stringify(body.system))?.[1] ?? "";
      if (index > 0) results.push(lastToolResult(body)?.content ?? "");
      const blob = (i: number) => `${workspace}/blob-${i}.bin`;
      if (index < 4) return { toolUse: { name: "Write", input: { file_path: blob(index), content: BLOB } } };
      if (index === 4) await new Promise((resolve) => setTimeout(resolve, 1000));
      if (index < 8) return { toolUse: { name: "Write", input: { file_path: blob(index - 4), content: "" } } };
      return { text: JSON.stringify({ summary: "Used < for the bound.", fixed: ["NM-1"] }) };
    });
    await fx.comment("/no-mistakes fix", { login: "maintainer" });

    expect(workspace).not.toBe("");
    expect(results[0]).toContain("File created successfully"); // the first blob landed in the agent's view
    expect(fx.remote.remoteSha("refs/heads/feature")).toBe(head); // nothing pushed
    expect(fx.replies().at(-1)).toContain("AGENT_MAX_WORKSPACE_MB");
    expect((await fx.findings()).map((f) => [f.number, f.status])).toEqual([[1, "open"]]);
    const fixer = (await fx.turns()).find((t) => t.role === "fixer")!;
    expect(fixer.status).toBe("failed");
    expect(fixer.error).toContain("it added more than 2 MB to its workspace (AGENT_MAX_WORKSPACE_MB)");
  }, 180_000);
});
