import { describe, expect, it } from "vitest";
import { UsageReader } from "../../../src/agents/sandbox/model-meter.js";
import { applyPolicy, checkRoute, modelPolicyFor } from "../../../src/agents/sandbox/model-policy.js";
import type { MeteredTokens } from "../../../src/agents/sandbox/model-prices.js";

/** The proxy's route for OpenCode's OpenAI-compatible provider: chat completions, as vLLM or Ollama serve them. */
const policy = modelPolicyFor(
  "openai-chat",
  { configured: "qwen3-coder", isDefault: false, sent: "qwen3-coder" },
  {
    maxOutputTokens: 4000,
  },
);
const body = (value: Record<string, unknown>) => Buffer.from(JSON.stringify(value));

describe("the chat completions route of the model proxy", () => {
  it.each([
    ["POST", "/chat/completions", undefined],
    ["POST", "/responses", 404],
    ["POST", "/completions", 404],
    ["GET", "/chat/completions", 405],
  ])("%s %s → %s", (method, path, status) => {
    expect(checkRoute(policy, method, path)?.status).toBe(status);
  });

  it("asks a streamed completion for its usage, lowers both output caps, keeps function tools only", () => {
    const passed = applyPolicy(
      policy,
      { authorization: "Bearer sk-placeholder", "user-agent": "opencode", "openai-organization": "org-x" },
      body({
        model: "qwen3-coder",
        stream: true,
        max_tokens: 32000,
        max_completion_tokens: 64000,
        messages: [{ role: "user", content: "hi" }],
        tools: [{ type: "function", function: { name: "read" } }, { type: "web_search" }],
        web_search_options: {},
      }),
    );
    if (!("body" in passed)) throw new Error(passed.message);
    const sent = JSON.parse(passed.body.toString("utf8")) as Record<string, unknown>;
    expect(sent.stream_options).toEqual({ include_usage: true });
    expect(sent.max_tokens).toBe(4000);
    expect(sent.max_completion_tokens).toBe(4000);
    expect(sent.tools).toEqual([{ type: "function", function: { name: "read" } }]);
    expect(sent.web_search_options).toBeUndefined();
    expect(passed.stripped).toEqual(["web_search", "web_search_options"]);
    expect(passed.headers.authorization).toBeUndefined();
    expect(passed.headers["openai-organization"]).toBeUndefined();
  });

  it("refuses another model in the API's own error shape", () => {
    const refused = applyPolicy(policy, {}, body({ model: "gpt-5", messages: [] }));
    expect(refused).toMatchObject({ status: 400, model: "gpt-5" });
  });
});

describe("the meter on chat completions", () => {
  const read = (streamed: boolean, chunks: string[]): MeteredTokens | undefined => {
    let tokens: MeteredTokens | undefined;
    const reader = new UsageReader("openai-chat", streamed, (t) => (tokens = t));
    for (const chunk of chunks) reader.push(Buffer.from(chunk));
    reader.end();
    return tokens;
  };
  const usage = { prompt_tokens: 1200, completion_tokens: 30, prompt_tokens_details: { cached_tokens: 1000 } };

  it("reads the last chunk's usage of a stream, cached tokens apart", () => {
    const chunks = [
      `data: ${JSON.stringify({ choices: [{ delta: { content: "hi" } }] })}\n\n`,
      `data: ${JSON.stringify({ choices: [], usage })}\n\ndata: [DONE]\n\n`,
    ];
    expect(read(true, chunks)).toEqual({ input: 200, cacheRead: 1000, cacheWrite: 0, output: 30 });
  });

  it("reads a whole completion's usage, and reports none for a stream cut before it", () => {
    expect(read(false, [JSON.stringify({ choices: [], usage })])).toEqual({
      input: 200,
      cacheRead: 1000,
      cacheWrite: 0,
      output: 30,
    });
    expect(read(true, [`data: ${JSON.stringify({ choices: [{ delta: { content: "hi" } }] })}\n\n`])).toBeUndefined();
  });
});
