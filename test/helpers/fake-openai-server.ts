import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Token counts one fake response reports (`response.completed.response.usage`). */
export interface FakeUsage {
  input: number;
  output: number;
  /** Of `input`, the tokens served from the prompt cache (`input_tokens_details.cached_tokens`); default 0. */
  cached?: number;
}

/**
 * One scripted model reply:
 * - text: an assistant message (the final answer of a turn)
 * - applyPatch: a call of the CLI's freeform `apply_patch` tool (codex edits files with it); the CLI
 *   runs it and comes back with the tool output, answered by the next reply
 * - shell: a call of the CLI's `exec_command` tool (unified exec) with this command line
 * - error: an HTTP error status (429, 500, ...) with a body
 * - hang: the request is accepted and never answered (for timeouts)
 */
export type FakeReply =
  | { text: string; usage?: FakeUsage }
  | { applyPatch: string; usage?: FakeUsage }
  | { shell: string; yieldTimeMs?: number; usage?: FakeUsage }
  | { error: number; body?: string }
  | { hang: true };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: unknown;
  rawBody: string;
}

export interface FakeOpenAIServer {
  /** Base URL for a model provider, ending in /v1. */
  readonly baseUrl: string;
  /** Every request, in order. */
  readonly requests: RecordedRequest[];
  /** The bodies of the POST /v1/responses calls, in order. */
  responsesBodies(): ResponsesBody[];
  /** Queues replies for the next /v1/responses calls (first in, first out). */
  enqueue(...replies: FakeReply[]): void;
  /** Replaces the default reply used when the queue is empty (default: text "ok"). */
  setDefault(reply: FakeReply | ((body: ResponsesBody) => FakeReply)): void;
  close(): Promise<void>;
}

export interface ResponsesBody {
  model?: string;
  input?: Array<Record<string, unknown>>;
  stream?: boolean;
  [key: string]: unknown;
}

/** Every text the model was sent in a request's `input` (messages and tool outputs), joined. */
export function inputText(body: ResponsesBody): string {
  return JSON.stringify(body.input ?? []);
}

/** A fake OpenAI Responses API (SSE) on 127.0.0.1, enough for `codex exec`. */
export async function startFakeOpenAIServer(): Promise<FakeOpenAIServer> {
  const requests: RecordedRequest[] = [];
  const queue: FakeReply[] = [];
  let fallback: FakeReply | ((body: ResponsesBody) => FakeReply) = { text: "ok" };
  const hanging = new Set<ServerResponse>();
  let seq = 0;

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks).toString("utf8");
      let body: unknown = undefined;
      try {
        body = rawBody ? (JSON.parse(rawBody) as unknown) : undefined;
      } catch {
        body = undefined; // not JSON: kept raw
      }
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      requests.push({ method: req.method ?? "GET", path, headers: req.headers, body, rawBody });

      if (req.method === "POST" && path.endsWith("/responses")) {
        const parsed = (body ?? {}) as ResponsesBody;
        const reply = queue.shift() ?? (typeof fallback === "function" ? fallback(parsed) : fallback);
        respond(res, reply, ++seq);
        return;
      }
      if (req.method === "GET" && path.endsWith("/models")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ object: "list", data: [], models: [] }));
        return;
      }
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `fake server: no route for ${req.method} ${path}` } }));
    });
  });

  function respond(res: ServerResponse, reply: FakeReply, n: number): void {
    if ("hang" in reply) {
      hanging.add(res);
      res.on("close", () => hanging.delete(res));
      res.writeHead(200, { "content-type": "text/event-stream" });
      return;
    }
    if ("error" in reply) {
      res.writeHead(reply.error, { "content-type": "application/json" });
      res.end(
        reply.body ?? JSON.stringify({ error: { message: `fake server error ${reply.error}`, type: "server_error" } }),
      );
      return;
    }
    const responseId = `resp_${n}`;
    const usage = reply.usage ?? { input: 100, output: 10 };
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const send = (data: Record<string, unknown>) =>
      res.write(`event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`);
    const base = {
      id: responseId,
      object: "response",
      created_at: Math.floor(Date.now() / 1000),
      model: "gpt-5.5",
      status: "in_progress",
      output: [],
    };
    send({ type: "response.created", sequence_number: 0, response: base });

    let item: Record<string, unknown>;
    if ("text" in reply) {
      const id = `msg_${n}`;
      send({
        type: "response.output_item.added",
        output_index: 0,
        item: { type: "message", id, role: "assistant", status: "in_progress", content: [] },
      });
      send({
        type: "response.content_part.added",
        item_id: id,
        output_index: 0,
        content_index: 0,
        part: { type: "output_text", text: "", annotations: [] },
      });
      send({ type: "response.output_text.delta", item_id: id, output_index: 0, content_index: 0, delta: reply.text });
      send({ type: "response.output_text.done", item_id: id, output_index: 0, content_index: 0, text: reply.text });
      item = {
        type: "message",
        id,
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: reply.text, annotations: [] }],
      };
    } else if ("applyPatch" in reply) {
      item = {
        type: "custom_tool_call",
        id: `ctc_${n}`,
        call_id: `call_${n}`,
        name: "apply_patch",
        input: reply.applyPatch,
        status: "completed",
      };
      send({ type: "response.output_item.added", output_index: 0, item: { ...item, input: "" } });
    } else {
      item = {
        type: "function_call",
        id: `fc_${n}`,
        call_id: `call_${n}`,
        name: "exec_command",
        arguments: JSON.stringify({
          cmd: reply.shell,
          ...(reply.yieldTimeMs === undefined ? {} : { yield_time_ms: reply.yieldTimeMs }),
        }),
        status: "completed",
      };
      send({ type: "response.output_item.added", output_index: 0, item: { ...item, arguments: "" } });
    }
    send({ type: "response.output_item.done", output_index: 0, item });
    send({
      type: "response.completed",
      response: {
        ...base,
        status: "completed",
        output: [item],
        usage: {
          input_tokens: usage.input,
          input_tokens_details: { cached_tokens: usage.cached ?? 0 },
          output_tokens: usage.output,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: usage.input + usage.output,
        },
      },
    });
    res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    responsesBodies: () =>
      requests
        .filter((r) => r.method === "POST" && r.path.endsWith("/responses"))
        .map((r) => (r.body ?? {}) as ResponsesBody),
    enqueue: (...replies) => void queue.push(...replies),
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
