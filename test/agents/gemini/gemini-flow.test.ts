import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GeminiAgent } from "../../../src/agents/gemini/index.js";
import {
  contentsText,
  startFakeGeminiServer,
  type FakeGeminiReply,
  type FakeGeminiServer,
  type GeminiRequestBody,
} from "../../helpers/fake-gemini-server.js";
import { FlowFixture, LOOP_BUG_APP, LOOP_FIXED_APP, ONE_BUG } from "../../helpers/flow-fixture.js";
import { useFlowDatabase } from "../../helpers/use-flow-database.js";

/**
 * AGENT=gemini through the app: the real (sandboxed) Gemini CLI reviews a PR, resumes its session on the next
 * push, fixes on `/no-mistakes fix` (the bot pushes the fixer's edit) and a fresh verifier session rules on the
 * claim — the model scripted by a fake Gemini server that answers each role by what it was asked.
 */

let model: FakeGeminiServer;
let fx: FlowFixture;
afterEach(async () => {
  await model?.close();
});
const database = useFlowDatabase(() => fx, { allowHost: "127.0.0.1" });
beforeEach(async () => {
  model = await startFakeGeminiServer();
  fx = FlowFixture.withoutApp({ permissions: { maintainer: "write" } });
  const agent = new GeminiAgent({
    homeDir: join(fx.dataDir, "agents"),
    apiKey: "AIza-flow-test-0123456789",
    baseUrl: model.baseUrl,
    killGraceMs: 1000,
  });
  await fx.startApp(database.handle, { agent, env: { AGENT_TIMEOUT: "90s" }, idleTimeoutMs: 120_000 });
});

/** The text of a request's newest user turn. */
function lastUserText(body: GeminiRequestBody): string {
  const last = body.contents?.at(-1);
  return (last?.parts ?? []).map((part) => String(part.text ?? "")).join("\n");
}

/** Reviewer: the bug once, then nothing new. Fixer: write the fixed file, then claim NM-1. Verifier: fixed. */
function roles(): (body: GeminiRequestBody) => FakeGeminiReply {
  let reviews = 0;
  return (body) => {
    const asked = lastUserText(body);
    const afterTool = (body.contents?.at(-1)?.parts ?? []).some((part) => "functionResponse" in part);
    if (afterTool) return { text: JSON.stringify({ summary: "Used < for the bound.", fixed: ["NM-1"], declined: [] }) };
    if (asked.includes('"verdicts"'))
      return { text: JSON.stringify({ verdicts: [{ id: "NM-1", fixed: true, reason: "The bound is < n now." }] }) };
    if (asked.includes('"declined"')) {
      const ws = /Workspace Directories:\*\*\n\s+- (\S+)/.exec(contentsText(body).replaceAll("\\n", "\n"))?.[1];
      return { call: { name: "write_file", args: { file_path: `${ws}/src/app.ts`, content: LOOP_FIXED_APP } } };
    }
    reviews++;
    return { text: JSON.stringify(reviews === 1 ? ONE_BUG : { summary: "Nothing new.", findings: [], resolved: [] }) };
  };
}

describe("a PR through the app with AGENT=gemini", () => {
  it("reviews, resumes on the next push, fixes on /no-mistakes fix, and a fresh verifier confirms", async () => {
    model.setDefault(roles());
    const head = fx.push({ "src/app.ts": LOOP_BUG_APP }, "first");
    await fx.pullRequest("opened", head);
    expect(fx.onlyReview(head).comments[0].body).toContain("Off-by-one in loop bound");
    const reviewed = model.modelCalls().length;

    const second = fx.push({ "docs/notes.md": "Notes on the loop.\n" }, "notes");
    await fx.pullRequest("synchronize", second, { before: head });
    // the resumed reviewer sent its first review back to the model
    const resumedRequest = contentsText(model.modelCalls()[reviewed]!.body);
    expect(resumedRequest).toContain("Off-by-one in loop bound");
    expect(resumedRequest).toContain("i <= n");

    await fx.comment("/no-mistakes fix", { login: "maintainer" });
    const pushed = fx.remote.remoteSha("refs/heads/feature");
    expect(pushed).not.toBe(second);
    expect(fx.remote.git(fx.remote.bare, "show", `${pushed}:src/app.ts`)).toBe(LOOP_FIXED_APP);

    const turns = await fx.turns();
    expect(turns.map((t) => [t.role, t.agent, t.sessionMode, t.status])).toEqual(
      expect.arrayContaining([
        ["reviewer", "gemini", "started", "succeeded"],
        ["reviewer", "gemini", "resumed", "succeeded"],
        ["fixer", "gemini", "started", "succeeded"],
        ["verifier", "gemini", "started", "succeeded"],
      ]),
    );
    for (const turn of turns) expect(Number(turn.costUsd)).toBeGreaterThan(0); // metered by the proxy
    expect((await fx.findings()).map((f) => [f.number, f.status])).toEqual([[1, "fixed"]]);
  }, 400_000);
});
