import { mkdtempSync, rmSync } from "node:fs";
import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ModelPolicy } from "../../../src/agents/sandbox/model-policy.js";
import { startModelProxy, type ModelProxy } from "../../../src/agents/sandbox/model-proxy.js";

/** The model proxy speaking the Gemini API: the real proxy over its socket, a recording upstream. */

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown> | undefined;
}

let upstream: Server;
let upstreamUrl: string;
let received: Received[];
let reply: { contentType: string; body: string };
let dir: string;
let proxy: ModelProxy | undefined;

const GEMINI: ModelPolicy = {
  api: "gemini",
  models: ["gemini-2.5-pro"],
  source: "AGENT_MODEL unset, default gemini-2.5-pro",
  maxOutputTokens: 4000,
  serverTools: false,
};
const PATH = "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse";

beforeEach(async () => {
  received = [];
  reply = { contentType: "application/json", body: "{}" };
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      res.writeHead(200, { "content-type": reply.contentType }).end(reply.body);
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), "nm-gemini-proxy-"));
});

afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

async function start(policy: ModelPolicy = GEMINI): Promise<ModelProxy> {
  proxy = await startModelProxy(join(dir, "model.sock"), {
    upstream: upstreamUrl,
    policy,
    auth: { header: "x-goog-api-key", value: "real-gemini-key" },
  });
  return proxy;
}

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

const sse = (events: unknown[]) => events.map((e) => `data: ${JSON.stringify(e)}\r\n\r\n`).join("");

describe("the model proxy for Gemini CLI", () => {
  it("takes the model from the path: the configured one passes, another is refused in the API's own error shape", async () => {
    const p = await start();
    expect((await call("POST", PATH, { contents: [] })).status).toBe(200);
    expect(received[0]!.url).toBe(PATH);
    const other = await call("POST", "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", { contents: [] });
    expect(other.status).toBe(400);
    expect(JSON.parse(other.body)).toEqual({
      error: {
        code: 400,
        status: "INVALID_ARGUMENT",
        message: expect.stringContaining('model "gemini-2.5-flash" refused: the app allows gemini-2.5-pro'),
      },
    });
    expect(p.usage.modelRefused).toContain("gemini-2.5-flash");
    // nothing but model calls: no model list, no file upload, no cached-content resource, no GET
    for (const [method, path] of [
      ["GET", "/v1beta/models"],
      ["POST", "/upload/v1beta/files"],
      ["POST", "/v1beta/cachedContents"],
      ["POST", "/v1beta/models/gemini-2.5-pro:batchGenerateContent"],
      ["GET", "/v1beta/models/gemini-2.5-pro:streamGenerateContent"],
    ] as const)
      expect((await call(method, path, method === "POST" ? {} : undefined)).status).toBeGreaterThanOrEqual(400);
    expect(received).toHaveLength(1);
  });

  it("caps maxOutputTokens, strips server-side tools and cachedContent, keeps the CLI's functions, replaces the key", async () => {
    await start();
    await call(
      "POST",
      PATH,
      {
        contents: [{ role: "user", parts: [{ text: "hi" }] }],
        generationConfig: { temperature: 1, maxOutputTokens: 999_999 },
        cachedContent: "cachedContents/someone-elses",
        tools: [
          { functionDeclarations: [{ name: "read_file" }] },
          { googleSearch: {} },
          { codeExecution: {} },
          { urlContext: {} },
          { functionDeclarations: [{ name: "x" }], googleSearchRetrieval: {} },
        ],
      },
      { "x-goog-api-key": "placeholder", "x-goog-user-project": "other-project", "x-goog-api-client": "genai-sdk" },
    );
    const got = received[0]!;
    expect(got.body!.generationConfig).toEqual({ temperature: 1, maxOutputTokens: 4000 });
    expect(got.body).not.toHaveProperty("cachedContent");
    expect(got.body!.tools).toEqual([{ functionDeclarations: [{ name: "read_file" }] }]);
    expect(got.headers["x-goog-api-key"]).toBe("real-gemini-key");
    expect(got.headers).not.toHaveProperty("x-goog-user-project");
    expect(got.headers["x-goog-api-client"]).toBe("genai-sdk");

    // without a cap in the request one is set; a smaller one is kept
    await call("POST", PATH, { contents: [] });
    expect(received[1]!.body!.generationConfig).toEqual({ maxOutputTokens: 4000 });
    await call("POST", PATH, { contents: [], generationConfig: { maxOutputTokens: 10 } });
    expect(received[2]!.body!.generationConfig).toEqual({ maxOutputTokens: 10 });
  });

  it("meters the last usageMetadata of a stream at Gemini's cache-aware prices, thinking as output", async () => {
    reply = {
      contentType: "text/event-stream",
      body: sse([
        { candidates: [{ content: { parts: [{ text: "a" }] } }], usageMetadata: { promptTokenCount: 10_000 } },
        {
          candidates: [{ content: { parts: [{ text: "b" }] }, finishReason: "STOP" }],
          usageMetadata: {
            promptTokenCount: 10_000,
            cachedContentTokenCount: 8_000,
            candidatesTokenCount: 300,
            thoughtsTokenCount: 200,
          },
        },
      ]),
    };
    const p = await start();
    await call("POST", PATH, { contents: [] });
    expect(p.usage).toMatchObject({
      responses: 1,
      tokensIn: 10_000,
      cacheReadTokens: 8_000,
      cacheWriteTokens: 0,
      tokensOut: 500,
      largestRequestTokens: 10_000,
    });
    // gemini-2.5-pro: $1.25 in, $0.125 cached, $10 out per million
    expect(p.usage.costUsd).toBeCloseTo((2_000 * 1.25 + 8_000 * 0.125 + 500 * 10) / 1e6, 12);
  });

  it("meters a JSON answer, charges countTokens nothing, and prices an unknown model as the dearest", async () => {
    reply = {
      contentType: "application/json",
      body: JSON.stringify({ usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 5 } }),
    };
    const p = await start({ ...GEMINI, models: ["gemini-2.5-pro", "gemini-next"] });
    await call("POST", "/v1beta/models/gemini-2.5-pro:countTokens", { contents: [] });
    expect(p.usage.responses).toBe(0);
    await call("POST", "/v1beta/models/gemini-2.5-pro:generateContent", { contents: [] });
    expect(p.usage.costUsd).toBeCloseTo((100 * 1.25 + 5 * 10) / 1e6, 12);
    await call("POST", "/v1beta/models/gemini-next:generateContent", { contents: [] });
    expect(p.usage.costUsd).toBeCloseTo((100 * 1.25 + 5 * 10 + 100 * 4 + 5 * 18) / 1e6, 12);
  });
});
