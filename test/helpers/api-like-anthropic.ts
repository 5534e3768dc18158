import { createHash } from "node:crypto";
import {
  startFakeAnthropicServer,
  type FakeAnthropicServer,
  type FakeResponder,
  type MessagesRequestBody,
} from "./fake-anthropic-server.js";

/** The API's context window when nothing else is said, in tokens. */
export const DEFAULT_WINDOW_TOKENS = 200_000;
/** How long a cache entry lives after its last use. */
export const CACHE_TTL_MS = 5 * 60_000;

/** Tokens of `bytes` bytes of request, estimated as bytes / 4. */
export const tokensOf = (bytes: number): number => Math.ceil(bytes / 4);

/** One block of a request's cacheable prefix: where it is, its size, and the hash of the prefix ending with it. */
export interface PrefixBlock {
  /** e.g. `tools[3]`, `system[1]`, `messages[12][0]` */
  where: string;
  bytes: number;
  /** Hash of the model and every block up to and including this one. */
  prefixHash: string;
  /** The request marked a cache_control breakpoint on this block. */
  breakpoint: boolean;
}

/**
 * A request's cacheable prefix in the order the API caches it (tools, then system, then messages), one
 * entry per block: a tool definition, a system block, a message's content block, each serialized as JSON
 * without its `cache_control` marker (the marker moves from turn to turn; it is no part of the content).
 * The model is part of the key: a cache is per model.
 */
export function prefixBlocks(body: MessagesRequestBody): PrefixBlock[] {
  const parts: PrefixPart[] = [];
  (body.tools ?? []).forEach((tool, i) => parts.push({ where: `tools[${i}]`, value: tool }));
  const system = typeof body.system === "string" ? [{ type: "text", text: body.system }] : (body.system ?? []);
  if (Array.isArray(system)) system.forEach((block, i) => parts.push({ where: `system[${i}]`, value: block }));
  body.messages.forEach((message, m) => {
    const content = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    content.forEach((block, b) => parts.push({ where: `messages[${m}][${b}]`, value: block, role: message.role }));
  });
  return hashPrefix(body.model ?? "", parts);
}

/** One piece of a request's prefix before hashing: where it is, its JSON value, the role of its message. */
export interface PrefixPart {
  where: string;
  value: unknown;
  role?: string;
}

/** The blocks of a prefix made of `parts` in order, for `model` (a `cache_control` key marks a breakpoint and is left out). */
export function hashPrefix(model: string, parts: PrefixPart[]): PrefixBlock[] {
  const hash = createHash("sha256").update(`model:${model}\n`);
  return parts.map(({ where, value, role }) => {
    let breakpoint = false;
    let content = value;
    if (value && typeof value === "object" && !Array.isArray(value) && "cache_control" in value) {
      const { cache_control: _marker, ...rest } = value as Record<string, unknown>;
      breakpoint = true;
      content = rest;
    }
    const text = `${role ? `${role}:` : ""}${JSON.stringify(content)}\n`;
    hash.update(text);
    return { where, bytes: Buffer.byteLength(text), prefixHash: hash.copy().digest("hex"), breakpoint };
  });
}

/** How one request's input was billed. All byte figures; tokens are bytes / 4. */
export interface AccountedRequest {
  totalBytes: number;
  /** Served from the cache (billed 0.1×). */
  cachedBytes: number;
  /** Not served from the cache and written to it (billed 1.25×). */
  writtenBytes: number;
  /** Not served from the cache and not written (after the request's last breakpoint; billed 1×). */
  uncachedBytes: number;
  /** Where the longest cached prefix ended: the first block not served (undefined: all served). */
  firstMiss: string | undefined;
  /** Over the window: answered 400 "prompt is too long", nothing billed or cached. */
  overflow: boolean;
}

/**
 * The prompt cache as the Anthropic API keeps it, simplified: exact prefixes of tools → system →
 * messages, an entry living CACHE_TTL_MS after its last use. Every block boundary of every request is an
 * entry (up to the request's last cache_control breakpoint, or all of it when the request marks none).
 * The API itself caches only at the breakpoints a request marks (and looks a few blocks back from
 * each); Claude Code marks the system prompt and the newest messages, so keeping every prefix is a fair
 * and slightly generous model of what it gets: no request here pays for a prefix the API would have
 * served from cache.
 */
export class PrefixCache {
  private readonly entries = new Map<string, number>();

  constructor(private readonly ttlMs = CACHE_TTL_MS) {}

  /** Forgets every entry (as 5 minutes without a request would). */
  expire(): void {
    this.entries.clear();
  }

  /** Bills `blocks` at time `now` and stores its prefixes; `overflow` is decided by the caller. */
  account(blocks: PrefixBlock[], now: number, overflow = false): AccountedRequest {
    const totalBytes = blocks.reduce((n, b) => n + b.bytes, 0);
    if (overflow)
      return { totalBytes, cachedBytes: 0, writtenBytes: 0, uncachedBytes: 0, firstMiss: blocks[0]?.where, overflow };
    for (const [hash, lastUse] of this.entries) if (now - lastUse > this.ttlMs) this.entries.delete(hash);
    let hit = -1;
    for (let i = blocks.length - 1; i >= 0; i--)
      if (this.entries.has(blocks[i]!.prefixHash)) {
        hit = i;
        break;
      }
    const lastBreakpoint = blocks.some((b) => b.breakpoint)
      ? blocks.findLastIndex((b) => b.breakpoint)
      : blocks.length - 1;
    let cachedBytes = 0;
    let writtenBytes = 0;
    let uncachedBytes = 0;
    blocks.forEach((b, i) => {
      if (i <= hit) cachedBytes += b.bytes;
      else if (i <= lastBreakpoint) writtenBytes += b.bytes;
      else uncachedBytes += b.bytes;
      if (i <= Math.max(hit, lastBreakpoint)) this.entries.set(b.prefixHash, now);
    });
    return { totalBytes, cachedBytes, writtenBytes, uncachedBytes, firstMiss: blocks[hit + 1]?.where, overflow };
  }
}

/** A request the API-like server accounted, with its blocks kept for a replay under other cache rules. */
export interface AccountedRecord extends AccountedRequest {
  /** The caller's label (e.g. the push being reviewed) when the request came. */
  tag: string;
  main: boolean;
  model: string;
  at: number;
  blocks: PrefixBlock[];
  messages: number;
}

export interface ApiLikeAnthropicServer extends FakeAnthropicServer {
  /** Every POST /v1/messages, accounted, in order. */
  readonly accounted: AccountedRecord[];
  /** Labels the requests that come from now on. */
  tag: string;
  /** Moves the server's clock on (cache entries expire against it). */
  advance(ms: number): void;
  /** Forgets every cache entry now. */
  expireCache(): void;
}

/**
 * The fake model server (test/helpers/fake-anthropic-server.ts) billing like the API: each POST
 * /v1/messages goes through a PrefixCache and reports `input_tokens` (not from the cache, not
 * written), `cache_read_input_tokens`, `cache_creation_input_tokens`; a request over `windowTokens`
 * (default 200,000) gets the API's 400 "prompt is too long". Its clock is the real one plus what
 * `advance` added.
 */
export async function startApiLikeAnthropicServer(
  options: { windowTokens?: number; responder?: FakeResponder } = {},
): Promise<ApiLikeAnthropicServer> {
  const windowTokens = options.windowTokens ?? DEFAULT_WINDOW_TOKENS;
  const cache = new PrefixCache();
  const accounted: AccountedRecord[] = [];
  let offset = 0;
  const labels = { tag: "" };
  const server = await startFakeAnthropicServer({
    responder: options.responder,
    account(body, main) {
      const blocks = prefixBlocks(body);
      const at = Date.now() + offset;
      const total = blocks.reduce((n, b) => n + b.bytes, 0);
      const overflow = tokensOf(total) > windowTokens;
      const billed = cache.account(blocks, at, overflow);
      accounted.push({
        ...billed,
        tag: labels.tag,
        main,
        model: body.model ?? "",
        at,
        blocks,
        messages: body.messages.length,
      });
      if (overflow)
        return {
          error: {
            status: 400,
            errorType: "invalid_request_error",
            message: `prompt is too long: ${tokensOf(total)} tokens > ${windowTokens} maximum`,
          },
        };
      return {
        usage: {
          input_tokens: tokensOf(billed.uncachedBytes),
          cache_read_input_tokens: tokensOf(billed.cachedBytes),
          cache_creation_input_tokens: tokensOf(billed.writtenBytes),
        },
      };
    },
  });
  const extended = Object.assign(server, {
    accounted,
    tag: "",
    advance: (ms: number) => void (offset += ms),
    expireCache: () => cache.expire(),
  });
  Object.defineProperty(extended, "tag", {
    get: () => labels.tag,
    set: (value: string) => void (labels.tag = value),
  });
  return extended;
}
