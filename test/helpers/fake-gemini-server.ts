import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Token counts one fake response reports (`usageMetadata`). */
export interface FakeGeminiUsage {
  /** promptTokenCount: the whole prompt, cached tokens included. */
  prompt: number;
  candidates: number;
  /** cachedContentTokenCount: of `prompt`, served from the cache; default 0. */
  cached?: number;
}

/**
 * One scripted model reply:
 * - text: a model message (the final answer of a turn)
 * - call: a function call of one of the CLI's tools (write_file, read_file…); the CLI runs it and comes
 *   back with its result, answered by the next reply
 * - error: an HTTP error status (429, 500, ...) with a body
 * - hang: the request is accepted and never answered (for timeouts)
 */
export type FakeGeminiReply =
  | { text: string; usage?: FakeGeminiUsage }
  | { call: { name: string; args: Record<string, unknown> }; usage?: FakeGeminiUsage }
  | { error: number; body?: string }
  | { hang: true };

export interface GeminiRequestBody {
  contents?: Array<{ role?: string; parts?: Array<Record<string, unknown>> }>;
  systemInstruction?: { parts?: Array<{ text?: string }> };
  tools?: Array<Record<string, unknown>>;
  generationConfig?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface RecordedGeminiRequest {
  method: string;
  /** The path without the query (`/v1beta/models/gemini-2.5-pro:streamGenerateContent`). */
  path: string;
  query: string;
  /** The model named in the path. */
  model: string | undefined;
  headers: IncomingMessage["headers"];
  body: GeminiRequestBody | undefined;
  rawBody: string;
}

export interface FakeGeminiServer {
  /** What GOOGLE_GEMINI_BASE_URL is set to. */
  readonly baseUrl: string;
  /** Every request, in order (the request log). */
  readonly requests: RecordedGeminiRequest[];
  /** The generateContent calls, in order. */
  modelCalls(): RecordedGeminiRequest[];
  /** Queues replies for the next model calls (first in, first out). */
  enqueue(...replies: FakeGeminiReply[]): void;
  /** From now on, requests with another `x-goog-api-key` are refused as the API does (400 API_KEY_INVALID). */
  requireKey(key: string): void;
  /** The models `GET /v1beta/models/<m>` describes (default: any). */
  serveModels(models: string[]): void;
  /** Replaces the default reply used when the queue is empty (default: text "ok"). */
  setDefault(reply: FakeGeminiReply | ((body: GeminiRequestBody) => FakeGeminiReply)): void;
  close(): Promise<void>;
}

/** Every text of a request's `contents` (messages, function calls and results), joined. */
export function contentsText(body: GeminiRequestBody | undefined): string {
  return JSON.stringify(body?.contents ?? []);
}

const MODEL_PATH = /^\/v1beta\/models\/([^/:]+):(streamGenerateContent|generateContent|countTokens)$/;

/** A fake Gemini API on 127.0.0.1 answering `streamGenerateContent?alt=sse` as Gemini CLI calls it. */
export async function startFakeGeminiServer(): Promise<FakeGeminiServer> {
  const requests: RecordedGeminiRequest[] = [];
  const queue: FakeGeminiReply[] = [];
  let fallback: FakeGeminiReply | ((body: GeminiRequestBody) => FakeGeminiReply) = { text: "ok" };
  const hanging = new Set<ServerResponse>();
  let key: string | undefined;
  let signatures = 0;
  let models: string[] | undefined;

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks).toString("utf8");
      let body: GeminiRequestBody | undefined;
      try {
        body = rawBody ? (JSON.parse(rawBody) as GeminiRequestBody) : undefined;
      } catch {
        body = undefined; // not JSON: kept raw
      }
      const [path = "/", query = ""] = (req.url ?? "/").split("?");
      const match = MODEL_PATH.exec(path);
      requests.push({
        method: req.method ?? "GET",
        path,
        query,
        model: match?.[1],
        headers: req.headers,
        body,
        rawBody,
      });
      if (key !== undefined && req.headers["x-goog-api-key"] !== key) {
        const error = {
          code: 400,
          message: "API key not valid. Please pass a valid API key.",
          status: "INVALID_ARGUMENT",
        };
        res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error }));
        return;
      }
      const described = /^\/v1beta\/models\/([^/:]+)$/.exec(path)?.[1];
      if (req.method === "GET" && described !== undefined) {
        const known = models === undefined || models.includes(described);
        res.writeHead(known ? 200 : 404, { "content-type": "application/json" });
        res.end(
          JSON.stringify(known ? { name: `models/${described}` } : { error: { code: 404, status: "NOT_FOUND" } }),
        );
        return;
      }
      if (req.method === "POST" && match?.[2] === "countTokens") {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ totalTokens: 100 }));
        return;
      }
      if (req.method === "POST" && match) {
        const reply = queue.shift() ?? (typeof fallback === "function" ? fallback(body ?? {}) : fallback);
        respond(res, reply, match[1]!, match[2] === "streamGenerateContent");
        return;
      }
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: 404, message: `fake server: no route for ${req.method} ${path}` } }));
    });
  });

  function respond(res: ServerResponse, reply: FakeGeminiReply, model: string, streamed: boolean): void {
    if ("hang" in reply) {
      hanging.add(res);
      res.on("close", () => hanging.delete(res));
      res.writeHead(200, { "content-type": "text/event-stream" });
      return;
    }
    if ("error" in reply) {
      res.writeHead(reply.error, { "content-type": "application/json" });
      res.end(
        reply.body ??
          JSON.stringify({
            error: { code: reply.error, message: `fake server error ${reply.error}`, status: "UNAVAILABLE" },
          }),
      );
      return;
    }
    const usage = reply.usage ?? { prompt: 100, candidates: 10 };
    // as the API answers a thinking model: a function call carries the signature of the thought behind it
    const part =
      "text" in reply ? { text: reply.text } : { functionCall: reply.call, thoughtSignature: `c2lnLQ${++signatures}` };
    const chunk = {
      candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
      usageMetadata: {
        promptTokenCount: usage.prompt,
        candidatesTokenCount: usage.candidates,
        totalTokenCount: usage.prompt + usage.candidates,
        ...(usage.cached ? { cachedContentTokenCount: usage.cached } : {}),
      },
      modelVersion: model,
    };
    if (!streamed) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(chunk));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.end(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    modelCalls: () =>
      requests.filter((r) => r.method === "POST" && r.model !== undefined && !r.path.endsWith(":countTokens")),
    enqueue: (...replies) => queue.push(...replies),
    requireKey: (wanted) => {
      key = wanted;
    },
    serveModels: (served) => {
      models = served;
    },
    setDefault: (reply) => {
      fallback = reply;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
