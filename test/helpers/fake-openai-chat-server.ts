import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Socket } from "node:net";

/** Token counts one fake completion reports in its final chunk's `usage`. */
export interface FakeChatUsage {
  prompt: number;
  completion: number;
  /** Of `prompt`, served from the server's prefix cache (`prompt_tokens_details.cached_tokens`). */
  cached?: number;
}

/**
 * One scripted reply of the chat completions API:
 * - text: an assistant message (a turn's final answer)
 * - tool: a call of one of the tools the request offered (the CLI runs it and comes back with its result)
 * - error: an HTTP error status with an OpenAI-shaped body
 */
export type FakeChatReply =
  | { text: string; usage?: FakeChatUsage }
  | { tool: { name: string; arguments: Record<string, unknown> }; usage?: FakeChatUsage }
  | { error: number; message?: string };

export interface ChatRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: ChatBody | undefined;
}

export interface ChatBody {
  model?: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  messages: Array<{ role: string; content?: unknown; tool_calls?: unknown; tool_call_id?: string }>;
  tools?: Array<{ type: string; function?: { name: string } }>;
  [key: string]: unknown;
}

export interface FakeOpenAIChatServer {
  /** Base URL of an OpenAI-compatible provider, ending in /v1. */
  readonly baseUrl: string;
  readonly requests: ChatRequest[];
  /** The bodies of the POST /v1/chat/completions calls, in order. */
  chatBodies(): ChatBody[];
  enqueue(...replies: FakeChatReply[]): void;
  close(): Promise<void>;
}

/** Every text a request sent the model (system, user, assistant, tool results), joined. */
export function chatText(body: ChatBody): string {
  return JSON.stringify(body.messages);
}

/**
 * A stand-in for an OpenAI-compatible chat completions server on 127.0.0.1 (what vLLM or Ollama serve):
 * POST /v1/chat/completions streamed (SSE, with a final usage chunk when asked) or as one JSON object;
 * replies come from the queue, else a short "ok".
 */
export async function startFakeOpenAIChatServer(): Promise<FakeOpenAIChatServer> {
  const requests: ChatRequest[] = [];
  const queue: FakeChatReply[] = [];
  const sockets = new Set<Socket>();
  let seq = 0;

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let body: ChatBody | undefined;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ChatBody;
      } catch {
        body = undefined;
      }
      const path = (req.url ?? "/").split("?")[0]!;
      requests.push({ method: req.method ?? "GET", path, headers: req.headers, body });
      if (req.method !== "POST" || !path.endsWith("/chat/completions") || !body) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "nope" } }));
        return;
      }
      answer(res, body, queue.shift() ?? { text: "ok" }, `chatcmpl-${++seq}`);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    chatBodies: () =>
      requests.filter((r) => r.path.endsWith("/chat/completions") && r.body).map((r) => r.body as ChatBody),
    enqueue: (...replies) => queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function answer(res: ServerResponse, body: ChatBody, reply: FakeChatReply, id: string): void {
  if ("error" in reply) {
    res
      .writeHead(reply.error, { "content-type": "application/json" })
      .end(JSON.stringify({ error: { message: reply.message ?? `error ${reply.error}`, type: "server_error" } }));
    return;
  }
  const u = reply.usage ?? { prompt: 100, completion: 20 };
  const usage = {
    prompt_tokens: u.prompt,
    completion_tokens: u.completion,
    total_tokens: u.prompt + u.completion,
    prompt_tokens_details: { cached_tokens: u.cached ?? 0 },
  };
  const model = body.model ?? "unknown";
  const base = { id, object: "chat.completion.chunk", created: 1_700_000_000, model };
  const delta =
    "text" in reply
      ? { role: "assistant", content: reply.text }
      : {
          role: "assistant",
          tool_calls: [
            {
              index: 0,
              id: `call_${id}`,
              type: "function",
              function: { name: reply.tool.name, arguments: JSON.stringify(reply.tool.arguments) },
            },
          ],
        };
  const finish = "text" in reply ? "stop" : "tool_calls";
  if (!body.stream) {
    const message = { ...delta, content: "text" in reply ? reply.text : null };
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        id,
        object: "chat.completion",
        created: base.created,
        model,
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      }),
    );
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
  send({ ...base, choices: [{ index: 0, delta, finish_reason: null }] });
  send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] });
  if (body.stream_options?.include_usage) send({ ...base, choices: [], usage });
  res.end("data: [DONE]\n\n");
}
