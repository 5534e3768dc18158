import { request as httpRequest, createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Socket } from "node:net";
import { ModelMeter, type MeterReport, type ModelBudget } from "./model-meter.js";
import { applyPolicy, checkRoute, errorBody, isTokenCount, localAnswer, type ModelPolicy } from "./model-policy.js";
import type { ModelRoute } from "./model-route.js";

const DROPPED_RESPONSE_HEADERS = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "trailer",
  "set-cookie",
]);

/**
 * Request bodies larger than this are refused (a long conversation is a few MB), and so is a body
 * that would take the bodies held at once, over all of a call's connections, past it: the agent
 * opens as many connections as it likes, and the proxy holds their bodies in the app's memory.
 */
const MAX_REQUEST_BYTES = 64 * 1024 * 1024;
/** The refusals kept for the log (the first few are shown); the rest are only counted. */
const MAX_REFUSALS_KEPT = 100;

export interface ModelProxy {
  /** The unix socket the proxy listens on. */
  readonly socketPath: string;
  /** Requests the proxy refused, and tools and feature switches it took out (for the log). */
  readonly refused: string[];
  /** The usage of every response so far, priced, and whether the budget stopped the call. */
  readonly usage: MeterReport;
  close(): Promise<void>;
}

/** What every exchange of one proxy shares: where it forwards, what it lets through, what it metered and noted. */
interface ProxyContext {
  route: ModelRoute;
  upstream: URL;
  send: typeof httpRequest;
  policy: ModelPolicy;
  meter: ModelMeter;
  log: RefusalLog;
  /** The request bodies held at once, over all connections. */
  held: { bytes: number };
}

/**
 * An HTTP proxy on a unix socket that forwards an agent's model API calls to `route.upstream`,
 * replacing whatever credentials the agent sent with the real key. Only POSTs to the API's model
 * paths pass, through `route.policy` (models, output cap, server tools, headers); `HEAD /` (Claude
 * Code's connectivity probe) and Codex's model list are answered here. Every response's usage is
 * metered, whoever in the sandbox made the request; once `budget` is spent nothing more is forwarded.
 */
export async function startModelProxy(
  socketPath: string,
  route: ModelRoute,
  budget?: ModelBudget,
): Promise<ModelProxy> {
  const upstream = new URL(route.upstream.replace(/\/+$/, ""));
  const context: ProxyContext = {
    route,
    upstream,
    send: upstream.protocol === "https:" ? httpsRequest : httpRequest,
    policy: route.policy,
    meter: new ModelMeter(route.policy.api, budget),
    log: new RefusalLog(),
    held: { bytes: 0 },
  };
  const server = createServer((req, res) => answer(context, req, res));
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => {
      server.off("error", reject);
      resolve();
    });
  });

  return {
    socketPath,
    refused: context.log.refused,
    get usage() {
      return context.meter.report;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The refusals, removals and dropped switches kept for the log (the first MAX_REFUSALS_KEPT). */
class RefusalLog {
  readonly refused: string[] = [];
  /** The switches already noted: the CLI sends them with every request, each dropped one is noted once. */
  readonly #droppedOnce = new Set<string>();

  note(line: string): void {
    if (this.refused.length < MAX_REFUSALS_KEPT) this.refused.push(line.slice(0, 200));
  }

  /** The switches dropped that were not noted before (at most 10 a note). */
  noteDropped(what: string, dropped: readonly string[]): void {
    const fresh = [...new Set(dropped.map((d) => d.slice(0, 80)))]
      .filter((d) => !this.#droppedOnce.has(d))
      .slice(0, 10);
    if (fresh.length === 0 || this.refused.length >= MAX_REFUSALS_KEPT) return;
    fresh.forEach((d) => this.#droppedOnce.add(d));
    this.note(`${what}: dropped ${fresh.map((d) => JSON.stringify(d)).join(", ")}`);
  }
}

/** A refusal, noted, and answered as the API would answer it. */
function refuse(context: ProxyContext, res: ServerResponse, what: string, status: number, message: string): void {
  context.log.note(`${what} (${status})`);
  res.writeHead(status, { "content-type": "application/json" }).end(errorBody(context.policy.api, status, message));
}

/** One request: answered here, refused, or read whole, put through the policy and forwarded. */
function answer(context: ProxyContext, req: IncomingMessage, res: ServerResponse): void {
  const { policy, meter, held } = context;
  const url = req.url ?? "/";
  const path = url.split("?")[0] ?? "/";
  const method = req.method ?? "?";
  const what = `${method} ${path}`;
  const local = localAnswer(policy.api, method, path);
  if (local) {
    req.resume();
    res.writeHead(local.status, local.body ? { "content-type": "application/json" } : {}).end(local.body);
    return;
  }
  const routeRefusal = checkRoute(policy, method, path);
  if (routeRefusal) {
    req.resume();
    refuse(context, res, what, routeRefusal.status, routeRefusal.message);
    return;
  }
  let holding = 0;
  res.on("close", () => (held.bytes -= holding));
  readBody(req, held, (bytes) => (holding += bytes)).then(
    (raw) => {
      if (raw === undefined)
        return refuse(context, res, what, 413, `the request bodies held at once are over ${MAX_REQUEST_BYTES} bytes`);
      if (meter.stopped) return refuse(context, res, what, 403, meter.stopped);
      const passed = applyPolicy(policy, req.headers, raw, path);
      if (!("body" in passed)) {
        if (passed.model !== undefined) meter.noteModelRefused(passed.message);
        return refuse(context, res, what, passed.status, passed.message);
      }
      if (passed.stripped.length > 0) context.log.note(`${what}: removed ${passed.stripped.join(", ")}`);
      context.log.noteDropped(what, passed.droppedSwitches);
      forward(context, res, { url, path, headers: passed.headers, body: passed.body, model: passed.model });
    },
    () => res.destroy(),
  );
}

/** A request that passed the policy, as it goes upstream. */
interface PassedRequest {
  url: string;
  path: string;
  headers: Record<string, string | string[]>;
  body: Buffer;
  model: string;
}

/** The request sent upstream with the real key; an unreachable API answers as a connection-level failure. */
function forward(context: ProxyContext, res: ServerResponse, request: PassedRequest): void {
  const { route, upstream, policy } = context;
  const headers = request.headers;
  if (route.auth) headers[route.auth.header] = route.auth.value;
  const outgoing = context.send(
    {
      protocol: upstream.protocol,
      hostname: upstream.hostname,
      port: upstream.port || undefined,
      method: "POST",
      path: `${upstream.pathname === "/" ? "" : upstream.pathname}${request.url}`,
      headers,
    },
    (incoming) => relay(context, incoming, res, request),
  );
  outgoing.on("error", (error) => {
    // The CLI sees what it would see from an unreachable API: a connection-level failure.
    if (!res.headersSent) {
      res
        .writeHead(502, { "content-type": "application/json" })
        .end(errorBody(policy.api, 502, `model API unreachable (${(error as NodeJS.ErrnoException).code ?? "error"})`));
    } else {
      res.destroy();
    }
  });
  res.on("close", () => outgoing.destroy());
  outgoing.end(request.body);
}

/** The upstream answer passed back to the CLI as it comes, metered, and its refusal of the model noted. */
function relay(context: ProxyContext, incoming: IncomingMessage, res: ServerResponse, request: PassedRequest): void {
  const { policy, meter } = context;
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined && !DROPPED_RESPONSE_HEADERS.has(name.toLowerCase())) out[name] = value;
  }
  const status = incoming.statusCode ?? 502;
  res.writeHead(status, out);
  // Token counting is free; any other answer that succeeded is billed, read or estimated.
  const billed = status >= 200 && status < 300 && !isTokenCount(request.path);
  const streamed = /text\/event-stream/i.test(String(incoming.headers["content-type"] ?? ""));
  const reader = billed ? meter.reader(request.model, streamed, estimate(policy, request.body)) : undefined;
  const refusal = status === 404 ? new ErrorReader() : undefined;
  incoming.on("data", (chunk: Buffer) => {
    reader?.push(chunk);
    refusal?.push(chunk);
    res.write(chunk);
  });
  incoming.on("end", () => {
    reader?.end();
    if (refusal) meter.noteModelRefused(upstreamRefusal(policy, request.model, status, refusal.message()));
    res.end();
  });
  incoming.on("error", () => res.destroy());
  incoming.on("close", () => reader?.end());
}

/** The error message of an API's error answer (both APIs put it at `error.message`), from its first 16 KiB. */
class ErrorReader {
  #chunks: Buffer[] = [];
  #bytes = 0;

  push(chunk: Buffer): void {
    if (this.#bytes >= 16 * 1024) return;
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
  }

  message(): string | undefined {
    try {
      const body = JSON.parse(Buffer.concat(this.#chunks).toString("utf8")) as { error?: { message?: unknown } };
      const message = body.error?.message;
      return typeof message === "string" ? message.slice(0, 300) : undefined;
    } catch {
      return undefined;
    }
  }
}

/**
 * The model API's 404 to a model path: the model is unknown to it, or the key may not use it. The CLI
 * words that after the name it was given, so the turn's error names the id sent and where it came from.
 */
function upstreamRefusal(policy: ModelPolicy, model: string, status: number, message: string | undefined): string {
  const why = message ? `${status}: ${message}` : String(status);
  const source = policy.source ? `; the CLI sends it for ${policy.source}` : "";
  return `model ${JSON.stringify(model)} refused by the model API (${why})${source}`;
}

/**
 * The whole request body, or undefined when it — with the bodies the proxy already holds (`held`,
 * over all connections) — is over the cap. What it holds is added to `held` and told to `hold`, so
 * the caller gives it back when the exchange closes; past the cap it stops keeping chunks.
 */
function readBody(
  req: IncomingMessage,
  held: { bytes: number },
  hold: (bytes: number) => void,
): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let over = false;
    req.on("data", (chunk: Buffer) => {
      if (over) return;
      if (held.bytes + chunk.length > MAX_REQUEST_BYTES) {
        over = true;
        chunks.length = 0;
        return;
      }
      held.bytes += chunk.length;
      hold(chunk.length);
      chunks.push(chunk);
    });
    req.on("end", () => resolve(over ? undefined : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/**
 * What a response is charged when it carried no usage (cut short, unreadable): its input at one token
 * per 4 bytes of the request, and the whole output cap.
 */
function estimate(policy: ModelPolicy, body: Buffer) {
  return { input: Math.ceil(body.length / 4), cacheRead: 0, cacheWrite: 0, output: policy.maxOutputTokens };
}
