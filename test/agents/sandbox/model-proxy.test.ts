import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BubblewrapSandbox } from "../../../src/agents/sandbox/bubblewrap-sandbox.js";
import { startModelProxy, type ModelProxy } from "../../../src/agents/sandbox/model-proxy.js";
import type { ModelPolicy } from "../../../src/agents/sandbox/model-policy.js";
import type { ModelBudget } from "../../../src/agents/sandbox/model-meter.js";

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown> | undefined;
}

/** A fake model API on 127.0.0.1 that records what reached it and answers with `reply`. */
let upstream: Server;
let upstreamUrl: string;
let received: Received[];
let reply: { contentType: string; body: string; status?: number };
let dir: string;
let proxy: ModelProxy | undefined;

beforeEach(async () => {
  received = [];
  reply = { contentType: "application/json", body: "{}" };
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      received.push({
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
      });
      res.writeHead(reply.status ?? 200, { "content-type": reply.contentType }).end(reply.body);
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), "nm-proxy-test-"));
});
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

const ANTHROPIC: ModelPolicy = {
  api: "anthropic",
  models: ["claude-sonnet-4-5"],
  source: "AGENT_MODEL=claude-sonnet-4-5",
  maxOutputTokens: 1000,
  serverTools: false,
};
const OPENAI: ModelPolicy = { api: "openai", models: ["gpt-5.5"], maxOutputTokens: 2000, serverTools: false };

async function start(policy: ModelPolicy, budget?: ModelBudget): Promise<ModelProxy> {
  proxy = await startModelProxy(
    join(dir, "model.sock"),
    { upstream: upstreamUrl, policy, auth: { header: "x-api-key", value: "real-key" } },
    budget,
  );
  return proxy;
}

/** One request to the proxy over its unix socket. */
function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { socketPath: proxy!.socketPath, method, path, headers: { "content-type": "application/json", ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      },
    );
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

describe("the model proxy's own memory (real proxy over its socket, fake upstream)", () => {
  it("refuses a body that would take the bodies held at once, over all connections, past 64 MiB; the held one still passes", async () => {
    await start(ANTHROPIC);
    const pad = "x".repeat(40 * 1024 * 1024);
    // The first request's body is sent but not finished: the proxy holds its 40 MiB. Over a unix
    // socket the write's callback comes once the proxy has read all but the socket's small buffer.
    const body = JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 10, messages: [], metadata: { pad } });
    let finish = () => {};
    let written = () => {};
    const flushed = new Promise<void>((resolve) => (written = resolve));
    const first = new Promise<number>((resolve, reject) => {
      const req = request(
        {
          socketPath: proxy!.socketPath,
          method: "POST",
          path: "/v1/messages",
          headers: { "content-type": "application/json" },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("error", reject);
      req.write(body.slice(0, body.length - 10), () => written());
      finish = () => req.end(body.slice(body.length - 10));
    });
    await flushed;
    const second = await call("POST", "/v1/messages", {
      model: "claude-sonnet-4-5",
      max_tokens: 10,
      messages: [],
      metadata: { pad },
    });
    finish();
    expect(second.status).toBe(413);
    expect(second.body).toMatch(/request bodies held at once are over/);
    expect(await first).toBe(200);
    expect(received).toHaveLength(1);
    // Given back when the exchange closed: the next one passes.
    expect(
      (
        await call("POST", "/v1/messages", {
          model: "claude-sonnet-4-5",
          max_tokens: 10,
          messages: [],
          metadata: { pad },
        })
      ).status,
    ).toBe(200);
  }, 60_000);

  it("keeps at most 100 refusals for the log, however many requests are refused", async () => {
    const p = await start(ANTHROPIC);
    for (let i = 0; i < 150; i++) expect((await call("GET", "/v1/messages")).status).toBe(405);
    expect(p.refused).toHaveLength(100);
  });
});

describe("the model proxy's policy (real proxy over its socket, fake upstream)", () => {
  it.each([
    [
      "another model",
      ANTHROPIC,
      "POST",
      "/v1/messages",
      { model: "claude-opus-4-1", max_tokens: 10, messages: [] },
      400,
      /model "claude-opus-4-1" refused: the app allows claude-sonnet-4-5 \(AGENT_MODEL=claude-sonnet-4-5\)$/,
    ],
    [
      "a model-less body",
      OPENAI,
      "POST",
      "/responses",
      { input: "hi" },
      400,
      /model null refused: the app allows gpt-5.5$/,
    ],
    ["GET of a stored response", OPENAI, "GET", "/responses/resp_123", undefined, 404, /not a model API call/],
    ["DELETE of a stored response", OPENAI, "DELETE", "/responses/resp_123", undefined, 404, /not a model API call/],
    ["GET on the messages path", ANTHROPIC, "GET", "/v1/messages", undefined, 405, /only POST/],
    ["DELETE on the responses path", OPENAI, "DELETE", "/responses", undefined, 405, /only POST/],
    ["another API path", ANTHROPIC, "POST", "/v1/files", {}, 404, /not a model API call/],
  ] as const)(
    "refuses %s with a 4xx the CLI shows, forwarding nothing",
    async (_name, policy, method, path, body, status, message) => {
      const p = await start(policy);
      const answer = await call(method, path, body);
      expect(answer.status).toBe(status);
      const error = (JSON.parse(answer.body) as { error: { message: string } }).error;
      expect(error.message).toMatch(/^no-mistakes model proxy: /);
      expect(error.message).toMatch(message);
      expect(received).toEqual([]);
      expect(p.refused).toHaveLength(1);
    },
  );

  it("keeps the first refusal of a model for the turn's error, and a refusal of anything else out of it", async () => {
    const p = await start(ANTHROPIC);
    await call("POST", "/v1/files", {});
    expect(p.usage.modelRefused).toBeUndefined();
    await call("POST", "/v1/messages", { model: "claude-opus-4-8", messages: [] });
    await call("POST", "/v1/messages", { model: "made-up", messages: [] });
    expect(p.usage.modelRefused).toBe(
      'model "claude-opus-4-8" refused: the app allows claude-sonnet-4-5 (AGENT_MODEL=claude-sonnet-4-5)',
    );
  });

  it("passes the model API's 404 for an allowed model on, and keeps it for the turn's error with both names", async () => {
    reply = {
      status: 404,
      contentType: "application/json",
      body: JSON.stringify({ type: "error", error: { type: "not_found_error", message: "model: claude-opus-4-8" } }),
    };
    const p = await start({
      ...ANTHROPIC,
      models: ["claude-opus-4-8", "claude-opus-4-1"],
      source: "AGENT_MODEL=claude-opus-4-1",
    });
    const answer = await call("POST", "/v1/messages", { model: "claude-opus-4-8", messages: [] });
    expect(answer).toEqual({ status: 404, body: reply.body });
    expect(received).toHaveLength(1);
    expect(p.usage.modelRefused).toBe(
      'model "claude-opus-4-8" refused by the model API (404: model: claude-opus-4-8); the CLI sends it for AGENT_MODEL=claude-opus-4-1',
    );
    expect(p.usage.responses).toBe(0); // an error answer is not billed
  });

  it("caps max_tokens, strips Anthropic server tools and fields, keeps client tools, filters headers", async () => {
    await start(ANTHROPIC);
    const answer = await call(
      "POST",
      "/v1/messages?beta=true",
      {
        model: "claude-sonnet-4-5",
        max_tokens: 64000,
        messages: [{ role: "user", content: "hi" }],
        tools: [
          { name: "Read", input_schema: { type: "object" } },
          { type: "custom", name: "Grep", input_schema: { type: "object" } },
          { type: "bash_20250124", name: "bash" },
          { type: "web_search_20250305", name: "web_search" },
          { type: "web_fetch_20250910", name: "web_fetch" },
          { type: "code_execution_20250825", name: "code_execution" },
        ],
        mcp_servers: [{ type: "url", url: "https://attacker.example/mcp", name: "x" }],
        container: "container_1",
      },
      {
        "anthropic-version": "2023-06-01",
        "anthropic-beta": "claude-code-20250219",
        "x-stainless-lang": "js",
        "x-api-key": "sk-placeholder",
        authorization: "Bearer stolen",
        "anthropic-organization-id": "org-other",
        "anthropic-workspace-id": "wrkspc-other",
        "x-unknown": "1",
        "accept-encoding": "gzip",
      },
    );
    expect(answer.status).toBe(200);
    expect(received).toHaveLength(1);
    const got = received[0]!;
    expect(got.url).toBe("/v1/messages?beta=true");
    expect(got.body!.max_tokens).toBe(1000);
    expect((got.body!.tools as Array<{ name: string }>).map((t) => t.name)).toEqual(["Read", "Grep", "bash"]);
    expect(got.body).not.toHaveProperty("mcp_servers");
    expect(got.body).not.toHaveProperty("container");
    expect(got.headers["x-api-key"]).toBe("real-key");
    expect(got.headers["anthropic-version"]).toBe("2023-06-01");
    expect(got.headers["anthropic-beta"]).toBe("claude-code-20250219");
    expect(got.headers["x-stainless-lang"]).toBe("js");
    expect(got.headers["accept-encoding"]).toBe("identity");
    for (const name of ["authorization", "anthropic-organization-id", "anthropic-workspace-id", "x-unknown"])
      expect(got.headers).not.toHaveProperty(name);
  });

  it("sets max_output_tokens, strips OpenAI server tools, keeps codex's own, drops organisation/project headers", async () => {
    await start(OPENAI);
    await call(
      "POST",
      "/responses",
      {
        model: "gpt-5.5",
        input: [],
        stream: true,
        background: true,
        tools: [
          { type: "function", name: "shell" },
          { type: "custom", name: "apply_patch" },
          { type: "local_shell" },
          { type: "web_search" },
          { type: "web_search_preview" },
          { type: "file_search", vector_store_ids: ["vs_1"] },
          { type: "code_interpreter", container: { type: "auto" } },
          { type: "mcp", server_url: "https://attacker.example/mcp", server_label: "x" },
          { type: "image_generation" },
          { type: "computer_use_preview" },
        ],
      },
      {
        "openai-organization": "org-other",
        "openai-project": "proj-other",
        originator: "codex_exec",
        session_id: "s1",
      },
    );
    const got = received[0]!;
    expect(got.body!.max_output_tokens).toBe(2000);
    expect(got.body).not.toHaveProperty("background");
    expect((got.body!.tools as Array<{ type: string }>).map((t) => t.type)).toEqual([
      "function",
      "custom",
      "local_shell",
    ]);
    expect(got.headers).not.toHaveProperty("openai-organization");
    expect(got.headers).not.toHaveProperty("openai-project");
    expect(got.headers.originator).toBe("codex_exec");
    expect(got.headers.session_id).toBe("s1");
  });

  it("passes only the anthropic-beta values the pinned CLI sends: others are dropped, the request kept, each noted once", async () => {
    const p = await start(ANTHROPIC);
    const body = { model: "claude-sonnet-4-5", max_tokens: 10, messages: [] };
    const betas = {
      "anthropic-beta":
        "claude-code-20250219,files-api-2025-04-14, interleaved-thinking-2025-05-14,mcp-client-2025-11-20",
    };
    expect((await call("POST", "/v1/messages?beta=true", body, betas)).status).toBe(200);
    expect((await call("POST", "/v1/messages?beta=true", body, betas)).status).toBe(200);
    expect((await call("POST", "/v1/messages", body, { "anthropic-beta": "code-execution-2025-08-25" })).status).toBe(
      200,
    );
    expect(received).toHaveLength(3);
    expect(received[0]!.headers["anthropic-beta"]).toBe("claude-code-20250219,interleaved-thinking-2025-05-14");
    expect(received[1]!.headers["anthropic-beta"]).toBe("claude-code-20250219,interleaved-thinking-2025-05-14");
    expect(received[2]!.headers).not.toHaveProperty("anthropic-beta");
    expect(p.refused).toEqual([
      'POST /v1/messages: dropped "anthropic-beta: files-api-2025-04-14", "anthropic-beta: mcp-client-2025-11-20"',
      'POST /v1/messages: dropped "anthropic-beta: code-execution-2025-08-25"',
    ]);
  });

  it("passes only the x-codex-beta-features values Codex sends, and never an openai-beta header", async () => {
    const p = await start(OPENAI);
    await call(
      "POST",
      "/responses",
      { model: "gpt-5.5", input: [] },
      { "x-codex-beta-features": "remote_compaction_v2,unvetted_feature", "openai-beta": "assistants=v2" },
    );
    expect(received[0]!.headers["x-codex-beta-features"]).toBe("remote_compaction_v2");
    expect(received[0]!.headers).not.toHaveProperty("openai-beta");
    expect(p.refused).toEqual(['POST /responses: dropped "x-codex-beta-features: unvetted_feature"']);
  });

  it("lets server tools through when the operator allows them, and never raises a smaller max_tokens", async () => {
    await start({ ...ANTHROPIC, serverTools: true });
    await call("POST", "/v1/messages", {
      model: "claude-sonnet-4-5",
      max_tokens: 5,
      messages: [],
      tools: [{ type: "web_search_20250305", name: "web_search" }],
    });
    expect(received[0]!.body!.max_tokens).toBe(5);
    expect(received[0]!.body!.tools).toEqual([{ type: "web_search_20250305", name: "web_search" }]);
  });

  it("answers Claude's HEAD / probe and Codex's model list itself", async () => {
    await start(OPENAI);
    expect((await call("HEAD", "/")).status).toBe(200);
    expect(JSON.parse((await call("GET", "/models")).body)).toEqual({ object: "list", data: [], models: [] });
    expect(received).toEqual([]);
  });
});

const sse = (events: unknown[]) => events.map((e) => `event: x\ndata: ${JSON.stringify(e)}\n\n`).join("");

describe("the model proxy's meter", () => {
  it.each([
    [
      "Anthropic SSE",
      ANTHROPIC,
      "/v1/messages",
      "text/event-stream",
      sse([
        {
          type: "message_start",
          message: {
            usage: {
              input_tokens: 100,
              cache_read_input_tokens: 1000,
              cache_creation_input_tokens: 200,
              output_tokens: 1,
            },
          },
        },
        { type: "content_block_delta", delta: { text: "hi" } },
        { type: "message_delta", usage: { output_tokens: 50 } },
        { type: "message_stop" },
      ]),
      { tokensIn: 1300, tokensOut: 50, costUsd: (100 * 3 + 1000 * 0.3 + 200 * 3.75 + 50 * 15) / 1e6 },
    ],
    [
      "Anthropic JSON",
      ANTHROPIC,
      "/v1/messages",
      "application/json",
      JSON.stringify({ type: "message", usage: { input_tokens: 10, output_tokens: 20 } }),
      { tokensIn: 10, tokensOut: 20, costUsd: (10 * 3 + 20 * 15) / 1e6 },
    ],
    [
      "OpenAI SSE",
      OPENAI,
      "/responses",
      "text/event-stream",
      sse([
        { type: "response.created", response: {} },
        {
          type: "response.completed",
          response: { usage: { input_tokens: 1000, input_tokens_details: { cached_tokens: 800 }, output_tokens: 40 } },
        },
      ]),
      { tokensIn: 1000, tokensOut: 40, costUsd: (200 * 1.25 + 800 * 0.125 + 40 * 10) / 1e6 },
    ],
    [
      "OpenAI JSON",
      OPENAI,
      "/responses",
      "application/json",
      JSON.stringify({ object: "response", usage: { input_tokens: 7, output_tokens: 3 } }),
      { tokensIn: 7, tokensOut: 3, costUsd: (7 * 1.25 + 3 * 10) / 1e6 },
    ],
  ] as const)("reads usage from %s responses", async (_name, policy, path, contentType, body, expected) => {
    reply = { contentType, body };
    const p = await start(policy);
    const answer = await call("POST", path, { model: policy.models[0], messages: [] });
    expect(answer.body).toBe(body); // passed through unchanged
    const usage = p.usage;
    expect(usage.responses).toBe(1);
    expect(usage.tokensIn).toBe(expected.tokensIn);
    expect(usage.tokensOut).toBe(expected.tokensOut);
    expect(usage.costUsd).toBeCloseTo(expected.costUsd, 12);
  });

  it("charges a successful answer without usage its estimate (the whole output cap), and count_tokens nothing", async () => {
    reply = { contentType: "application/json", body: JSON.stringify({ input_tokens: 5 }) };
    const p = await start(ANTHROPIC);
    await call("POST", "/v1/messages/count_tokens", { model: "claude-sonnet-4-5", messages: [] });
    expect(p.usage.responses).toBe(0);
    await call("POST", "/v1/messages", { model: "claude-sonnet-4-5", messages: [] });
    expect(p.usage.responses).toBe(1);
    expect(p.usage.tokensOut).toBe(1000);
  });

  it("stops forwarding once the budget is spent: the request that passes it is answered, the next refused with the reason", async () => {
    reply = {
      contentType: "application/json",
      body: JSON.stringify({ usage: { input_tokens: 100_000, output_tokens: 10_000 } }),
    };
    const p = await start(ANTHROPIC, { remainingUsd: 0.5, limit: "$5.00 (limits.max_cost_usd)" });
    const body = { model: "claude-sonnet-4-5", messages: [] };
    expect((await call("POST", "/v1/messages", body)).status).toBe(200); // $0.45
    expect(p.usage.stopped).toBeUndefined();
    expect((await call("POST", "/v1/messages", body)).status).toBe(200); // $0.90: past the budget
    expect(p.usage.stopped).toMatch(
      /model budget is spent .*\$0\.90 of the \$0\.50 left of \$5\.00 \(limits\.max_cost_usd\)/,
    );
    const refused = await call("POST", "/v1/messages", body);
    expect(refused.status).toBe(403);
    expect(refused.body).toContain("model budget is spent");
    expect(received).toHaveLength(2);
  });
});

describe("a request made from inside the sandbox, not by the CLI", () => {
  it("is metered: node in a real bwrap sandbox posts to the bridge port itself", async () => {
    reply = {
      contentType: "application/json",
      body: JSON.stringify({ usage: { input_tokens: 4000, output_tokens: 500 } }),
    };
    const sandbox = new BubblewrapSandbox();
    const workspace = mkdtempSync(join(dir, "ws-"));
    const home = mkdtempSync(join(dir, "home-"));
    const script = `fetch("http://127.0.0.1:" + process.argv[1] + "/v1/messages", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 99999, messages: [] }) }).then(async (r) => console.log(r.status, await r.text()))`;
    const port = new URL(sandbox.modelEndpoint({ baseUrl: "x", apiKey: undefined }).baseUrl).port;
    const result = await sandbox.run({
      command: process.execPath,
      args: ["-e", script, port],
      workspace,
      writable: false,
      home,
      runtime: [],
      env: { PATH: "/usr/bin:/bin" },
      stdin: "",
      timeoutMs: 30_000,
      model: { upstream: upstreamUrl, policy: ANTHROPIC },
      budget: { remainingUsd: 0.001, limit: "$5.00 (limits.max_cost_usd)" },
    });
    expect(result.stdout).toContain("200");
    expect(received).toHaveLength(1);
    expect(received[0]!.body!.max_tokens).toBe(1000);
    expect(result.metered).toMatchObject({ tokensIn: 4000, tokensOut: 500, responses: 1 });
    expect(result.metered!.costUsd).toBeCloseTo((4000 * 3 + 500 * 15) / 1e6, 12);
    expect(result.metered!.stopped).toMatch(/model budget is spent/);
  }, 60_000);
});
