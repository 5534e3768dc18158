import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One HTTP request the fake model server received (JSON bodies parsed). */
export interface RecordedRequest {
  method: string;
  /** Path with query, e.g. /v1/messages?beta=true */
  url: string;
  headers: IncomingMessage["headers"];
  body: unknown;
}

/** The body of a POST /v1/messages request, loosely typed. */
export interface MessagesRequestBody {
  model?: string;
  stream?: boolean;
  system?: unknown;
  tools?: Array<{ name: string }>;
  messages: Array<{ role: string; content: string | Array<Record<string, unknown>> }>;
  [key: string]: unknown;
}

export type FakeReply =
  /** A final text answer (stop_reason end_turn). */
  | { text: string; inputTokens?: number; outputTokens?: number }
  /** A tool call (stop_reason tool_use); the CLI runs the tool and sends a tool_result in its next request. */
  | {
      toolUse: { name: string; input: Record<string, unknown>; id?: string };
      text?: string;
      inputTokens?: number;
      outputTokens?: number;
    }
  /** An HTTP error, e.g. 529 overloaded or 429 rate limit. */
  | { status: number; errorType?: string; message?: string }
  /** Never answer (the request hangs until the client goes away). */
  | { hang: true };

export interface MessagesCall {
  body: MessagesRequestBody;
  /** 0-based index among main-loop model calls (those with tools). */
  index: number;
}

/**
 * What an accounting hook (an API-like billing model, e.g. test/helpers/api-like-anthropic.ts) makes of
 * a POST /v1/messages before it is answered: an error to answer instead (a prompt over the window), or
 * the usage figures to report.
 */
export interface MessagesAccount {
  error?: { status: number; errorType?: string; message?: string };
  usage?: { input_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number };
}

/** Decides the reply to a main-loop model call; undefined = take the next queued reply. */
export type FakeResponder = (call: MessagesCall) => FakeReply | undefined | Promise<FakeReply | undefined>;

export interface FakeAnthropicServer {
  /** http://127.0.0.1:PORT — give it to the CLI as ANTHROPIC_BASE_URL. */
  readonly url: string;
  /** Every request, in order (HEAD probes included). */
  readonly requests: RecordedRequest[];
  /** The bodies of the main-loop POST /v1/messages calls (those offering tools). */
  mainCalls(): MessagesRequestBody[];
  /** Replies for the next main-loop calls, in order. */
  enqueue(...replies: FakeReply[]): void;
  /** A function consulted before the queue. */
  setResponder(responder: FakeResponder | undefined): void;
  /** Default when neither responder nor queue has a reply. */
  fallbackText: string;
  close(): Promise<void>;
}

let ids = 0;

/** Text of every message in a request, flattened (text blocks, tool results, strings). */
export function messagesText(body: MessagesRequestBody): string {
  const parts: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === "string") parts.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") {
      const block = value as Record<string, unknown>;
      if (typeof block.text === "string") parts.push(block.text);
      if (block.content !== undefined) walk(block.content);
      if (block.input !== undefined) parts.push(JSON.stringify(block.input));
    }
  };
  walk(body.messages);
  return parts.join("\n");
}

/** The last message of a request, when it carries a tool_result. */
export function lastToolResult(body: MessagesRequestBody): { content: string; isError: boolean } | undefined {
  const last = body.messages[body.messages.length - 1];
  if (!last || typeof last.content === "string") return undefined;
  const block = last.content.find((b) => b.type === "tool_result");
  if (!block) return undefined;
  const content = typeof block.content === "string" ? block.content : JSON.stringify(block.content);
  return { content, isError: block.is_error === true };
}

/**
 * A stand-in for the Anthropic Messages API on 127.0.0.1, enough for Claude Code headless:
 * HEAD / (connectivity probe), POST /v1/messages[?beta=true] streaming (SSE) or not,
 * POST /v1/messages/count_tokens, and a 200 `{}` for anything else the CLI asks.
 * Model calls without tools (title/summary helpers) get a short canned text and do not consume the queue.
 */
export async function startFakeAnthropicServer(
  options: {
    replies?: FakeReply[];
    responder?: FakeResponder;
    log?: boolean;
    /** Consulted for every POST /v1/messages (main or not) before it is answered; absent = fixed usage figures. */
    account?: (body: MessagesRequestBody, isMain: boolean) => MessagesAccount | undefined;
  } = {},
): Promise<FakeAnthropicServer> {
  const requests: RecordedRequest[] = [];
  const queue: FakeReply[] = [...(options.replies ?? [])];
  const mains: MessagesRequestBody[] = [];
  let responder = options.responder;
  const sockets = new Set<import("node:net").Socket>();

  const state = {
    fallbackText: "OK",
  };

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "api_error", message: String(error) } }));
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    let body: unknown = raw;
    try {
      body = raw ? (JSON.parse(raw) as unknown) : undefined;
    } catch {
      // not JSON: keep the text
    }
    const url = req.url ?? "/";
    requests.push({ method: req.method ?? "GET", url, headers: req.headers, body });
    if (options.log) console.error(`[fake-anthropic] ${req.method} ${url} ${raw.slice(0, 300)}`);

    const path = url.split("?")[0];
    if (req.method === "HEAD" || (req.method === "GET" && path === "/")) {
      res.writeHead(200).end();
      return;
    }
    if (req.method === "POST" && path === "/v1/messages/count_tokens") {
      json(res, 200, { input_tokens: Math.ceil(raw.length / 4) });
      return;
    }
    if (req.method === "POST" && path === "/v1/messages") {
      const request = body as MessagesRequestBody;
      const isMain = Array.isArray(request.tools) && request.tools.length > 0;
      const account = options.account?.(request, isMain);
      if (account?.error) {
        await respond(res, request, { ...account.error });
        return;
      }
      let reply: FakeReply | undefined;
      if (isMain) {
        const index = mains.push(request) - 1;
        reply = (await responder?.({ body: request, index })) ?? queue.shift();
      }
      reply ??= { text: isMain ? state.fallbackText : "Untitled" };
      await respond(res, request, reply, account?.usage);
      return;
    }
    json(res, 200, {});
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    mainCalls: () => [...mains],
    enqueue: (...replies) => void queue.push(...replies),
    setResponder: (r) => void (responder = r),
    get fallbackText() {
      return state.fallbackText;
    },
    set fallbackText(text: string) {
      state.fallbackText = text;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
}

async function respond(
  res: ServerResponse,
  request: MessagesRequestBody,
  reply: FakeReply,
  accounted?: MessagesAccount["usage"],
): Promise<void> {
  if ("hang" in reply) return; // the socket stays open until the client or close() ends it
  if ("status" in reply) {
    json(res, reply.status, {
      type: "error",
      error: {
        type:
          reply.errorType ??
          (reply.status === 529 ? "overloaded_error" : reply.status === 429 ? "rate_limit_error" : "api_error"),
        message: reply.message ?? "fake failure",
      },
    });
    return;
  }
  const id = `msg_fake_${++ids}`;
  const model = request.model ?? "claude-fake";
  const content: Array<Record<string, unknown>> = [];
  if ("toolUse" in reply) {
    if (reply.text) content.push({ type: "text", text: reply.text });
    content.push({
      type: "tool_use",
      id: reply.toolUse.id ?? `toolu_fake_${++ids}`,
      name: reply.toolUse.name,
      input: reply.toolUse.input,
    });
  } else {
    content.push({ type: "text", text: reply.text });
  }
  const stopReason = "toolUse" in reply ? "tool_use" : "end_turn";
  const usage = {
    input_tokens: reply.inputTokens ?? 100,
    output_tokens: reply.outputTokens ?? 20,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    ...accounted,
  };

  if (!request.stream) {
    json(res, 200, {
      id,
      type: "message",
      role: "assistant",
      model,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage,
    });
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const send = (event: string, data: Record<string, unknown>): void => {
    res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  };
  send("message_start", {
    message: {
      id,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  content.forEach((block, index) => {
    if (block.type === "text") {
      send("content_block_start", { index, content_block: { type: "text", text: "" } });
      send("content_block_delta", { index, delta: { type: "text_delta", text: block.text } });
    } else {
      send("content_block_start", {
        index,
        content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
      });
      send("content_block_delta", {
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
      });
    }
    send("content_block_stop", { index });
  });
  send("message_delta", {
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  send("message_stop", {});
  res.end();
}
