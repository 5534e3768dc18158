import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentError } from "../../../src/agents/agent-error.js";
import { OpenCodeAgent } from "../../../src/agents/opencode/index.js";
import { startFakeAnthropicServer, type FakeAnthropicServer } from "../../helpers/fake-anthropic-server.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";

let server: FakeAnthropicServer;
let cwd: string;
beforeEach(async () => {
  server = await startFakeAnthropicServer();
  cwd = tempDir("nm-opencode-ws-");
  writeFileSync(join(cwd, "a.txt"), "x\n");
  execFileSync("git", ["init", "-q", cwd]);
});
afterEach(async () => {
  await server.close();
  removeTempDirs();
});

describe("OpenCode when the provider is overloaded", () => {
  it("retries a few times, then ends the turn as transient (RunSessions decides what next)", async () => {
    server.setResponder(() => ({ status: 529, errorType: "overloaded_error", message: "Overloaded" }));
    const agent = new OpenCodeAgent({
      homeDir: tempDir(),
      baseUrl: server.url,
      apiKey: "sk-ant-0123456789",
      killGraceMs: 1000,
    });
    const error = await agent
      .run({ prompt: "Review.", cwd, role: "reviewer", timeoutMs: 150_000, scope: "1-reviewer" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).kind).toBe("transient");
    expect((error as AgentError).message).toMatch(/Overloaded/);
    // it gives up on its own after a few retries (about 80 s here), well before the turn's time limit
    expect(server.mainCalls().length).toBeGreaterThan(1);
  }, 300_000);
});
