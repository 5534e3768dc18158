import { modelSetting, type AgentModel } from "../agent-model.js";

/**
 * Which model API a proxy speaks: Anthropic Messages (Claude Code), OpenAI Responses (Codex), the Gemini API
 * (Gemini CLI), or OpenAI chat completions (OpenCode's OpenAI-compatible provider: what a team's own model
 * server speaks).
 */
export type ModelApi = "anthropic" | "openai" | "gemini" | "openai-chat";

/** What the model proxy lets an agent ask its model API for. */
export interface ModelPolicy {
  api: ModelApi;
  /** The model ids a request may name (the id the CLI sends first, then the configured name); any other is refused. */
  models: string[];
  /** Where `models` come from, named in a refusal: `AGENT_MODEL=claude-opus-4-1`. */
  source?: string;
  /** `max_tokens` / `max_output_tokens` is lowered to this (and set to it when absent). */
  maxOutputTokens: number;
  /** Server-side tools (web search/fetch, code execution, MCP servers…) pass only when true. */
  serverTools: boolean;
}

/** A request the proxy answers itself with an error in the API's own shape. */
export interface PolicyRefusal {
  status: number;
  message: string;
  /** Set when it was the request's model that was refused. */
  model?: string;
}

/** A request as the policy passes it upstream. */
export interface PolicyPass {
  headers: Record<string, string | string[]>;
  body: Buffer;
  /** The model the request names (for pricing its usage). */
  model: string;
  /** The tools that were taken out, for the log. */
  stripped: string[];
  /** Feature switches taken out of their headers (`anthropic-beta: files-api-2025-04-14`), for the log. */
  droppedSwitches: string[];
}

/** Default output cap per request when the operator sets none (AGENT_MAX_OUTPUT_TOKENS). */
export const DEFAULT_MAX_OUTPUT_TOKENS = 32_000;

/**
 * An adapter's policy: its one model — the id its CLI sends, and the name configured for it —, the
 * operator's output cap (default above) and server-tools switch.
 */
export function modelPolicyFor(
  api: ModelApi,
  model: AgentModel,
  options: { maxOutputTokens?: number | undefined; serverTools?: boolean | undefined },
): ModelPolicy {
  return {
    api,
    models: [...new Set([model.sent, model.configured])],
    source: modelSetting(model),
    maxOutputTokens: options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
    serverTools: options.serverTools === true,
  };
}

/** A Gemini API model call: the model is named in the path (`/v1beta/models/gemini-2.5-pro:streamGenerateContent`). */
const GEMINI_MODEL_PATH = /^\/v1beta\/models\/([A-Za-z0-9._-]+):(streamGenerateContent|generateContent|countTokens)$/;

/** Whether a model path's answer is free (token counting). */
export function isTokenCount(path: string): boolean {
  return path.endsWith("/count_tokens") || path.endsWith(":countTokens");
}

/** The POST paths each API's CLI uses; nothing else is forwarded. */
const PATHS: Record<ModelApi, RegExp[]> = {
  anthropic: [/^\/v1\/messages$/, /^\/v1\/messages\/count_tokens$/],
  openai: [/^\/responses$/, /^\/responses\/compact$/],
  gemini: [GEMINI_MODEL_PATH],
  "openai-chat": [/^\/chat\/completions$/],
};

/**
 * Request headers passed upstream, by name or prefix; every other header (organisation, project,
 * workspace, credentials, encodings the meter could not read) is dropped. These are what the pinned
 * CLIs send.
 */
const HEADERS: Record<ModelApi, { names: Set<string>; prefixes: string[] }> = {
  anthropic: {
    names: new Set([
      "content-type",
      "accept",
      "user-agent",
      "anthropic-version",
      "anthropic-beta",
      "anthropic-dangerous-direct-browser-access",
      "x-app",
    ]),
    prefixes: ["x-stainless-", "x-claude-code-"],
  },
  openai: {
    names: new Set(["content-type", "accept", "user-agent", "originator", "session_id", "conversation_id", "version"]),
    prefixes: ["x-codex-", "x-openai-subagent"],
  },
  gemini: { names: new Set(["content-type", "accept", "user-agent", "x-goog-api-client"]), prefixes: [] },
  "openai-chat": { names: new Set(["content-type", "accept", "user-agent"]), prefixes: [] },
};

/**
 * Headers that switch provider features on, with the values the pinned CLIs send — measured against a
 * local server: Claude Code 2.1.197 with claude-sonnet-4-5, its dated snapshot, claude-opus-4-1 and -4-5,
 * claude-haiku-4-5, claude-3-5-haiku-latest and the `sonnet`, `opus`, `haiku` aliases (a `[1m]` model
 * adds context-1m), on first turns, resumes and tool calls of every role; Codex 0.171.0 likewise. Any
 * other value is taken out of the list and the request kept: a beta the app never vetted (files, MCP,
 * code execution…) never reaches the provider with the operator's key.
 */
const FEATURE_SWITCHES: Record<ModelApi, Record<string, ReadonlySet<string>>> = {
  anthropic: {
    "anthropic-beta": new Set([
      "claude-code-20250219",
      "interleaved-thinking-2025-05-14",
      "thinking-token-count-2026-05-13",
      "context-management-2025-06-27",
      "prompt-caching-scope-2026-01-05",
      "mid-conversation-system-2026-04-07",
      "effort-2025-11-24",
      "context-1m-2025-08-07",
      // OpenCode 1.18.33 (@ai-sdk/anthropic) sends it on every request
      "structured-outputs-2025-11-13",
    ]),
  },
  openai: { "x-codex-beta-features": new Set(["remote_compaction_v2"]) },
  gemini: {},
  "openai-chat": {},
};

/** Tool entries the CLIs run themselves (client tools); any other `type` runs at the provider. */
function isClientTool(api: ModelApi, tool: unknown): boolean {
  if (!tool || typeof tool !== "object") return false;
  const type = (tool as { type?: unknown }).type;
  if (api === "gemini") return Object.keys(tool).every((key) => key === "functionDeclarations");
  if (api === "anthropic")
    return type === undefined || type === "custom" || (typeof type === "string" && /^(bash|text_editor)_/.test(type));
  if (api === "openai-chat") return type === "function";
  return type === "function" || type === "custom" || type === "local_shell";
}

/** Body fields that make the provider reach out or run things on its side. */
const SERVER_FIELDS: Record<ModelApi, string[]> = {
  anthropic: ["mcp_servers", "container"],
  openai: ["background", "prompt", "conversation"],
  gemini: ["cachedContent"],
  "openai-chat": ["web_search_options"],
};

/** The methods and paths the proxy answers itself: Claude's connectivity probe, Codex's model list. */
export function localAnswer(api: ModelApi, method: string, path: string): { status: number; body: string } | undefined {
  if ((method === "HEAD" || method === "GET") && path === "/") return { status: 200, body: "" };
  if (api !== "anthropic" && method === "GET" && path === "/models")
    return { status: 200, body: JSON.stringify({ object: "list", data: [], models: [] }) };
  return undefined;
}

/** The method and path alone: refused before the body is read. */
export function checkRoute(policy: ModelPolicy, method: string, path: string): PolicyRefusal | undefined {
  if (!PATHS[policy.api].some((pattern) => pattern.test(path)))
    return { status: 404, message: `${method} ${path} is not a model API call the agent may make` };
  if (method !== "POST") return { status: 405, message: `${method} ${path} is refused: only POST is forwarded` };
  return undefined;
}

/**
 * Applies the policy to one request: the model must be one of `models`, the output cap is lowered to
 * `maxOutputTokens`, server-side tools and fields are taken out unless allowed, and only known headers
 * pass (feature switches with their known values only). The body is re-serialised; `content-length` is
 * the new one.
 */
export function applyPolicy(
  policy: ModelPolicy,
  headers: Record<string, string | string[] | undefined>,
  raw: Buffer,
  path = "",
): PolicyPass | PolicyRefusal {
  let body: Record<string, unknown>;
  try {
    const parsed = JSON.parse(raw.toString("utf8")) as unknown;
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
    body = parsed as Record<string, unknown>;
  } catch {
    return { status: 400, message: "the request body is not a JSON object" };
  }
  const model = policy.api === "gemini" ? GEMINI_MODEL_PATH.exec(path)?.[1] : body.model;
  if (typeof model !== "string" || !allowsModel(policy, model)) return modelRefusal(policy, model);

  capOutput(policy, body, path);
  if (policy.api === "openai-chat") chatMetered(body, policy.maxOutputTokens);

  const stripped: string[] = [];
  if (!policy.serverTools) {
    if (Array.isArray(body.tools)) {
      body.tools = body.tools.filter((tool: unknown) => {
        if (isClientTool(policy.api, tool)) return true;
        stripped.push(String((tool as { type?: unknown } | null)?.type ?? "?"));
        return false;
      });
    }
    for (const field of SERVER_FIELDS[policy.api]) {
      if (field in body) {
        stripped.push(field);
        delete body[field];
      }
    }
  }

  const { headers: out, droppedSwitches } = allowedHeaders(policy.api, headers);
  const forwarded = Buffer.from(JSON.stringify(body));
  out["content-type"] = "application/json";
  out["content-length"] = String(forwarded.length);
  // The meter reads the response: it must come uncompressed.
  out["accept-encoding"] = "identity";
  return { headers: out, body: forwarded, model, stripped, droppedSwitches };
}

/** Lowers the request's output cap to the policy's (sets it when absent); a token count has none. */
function capOutput(policy: ModelPolicy, body: Record<string, unknown>, path: string): void {
  if (policy.api === "gemini") {
    if (path.endsWith(":countTokens")) return;
    const config = body.generationConfig && typeof body.generationConfig === "object" ? body.generationConfig : {};
    const asked = (config as Record<string, unknown>).maxOutputTokens;
    const capped = typeof asked === "number" && asked <= policy.maxOutputTokens ? asked : policy.maxOutputTokens;
    body.generationConfig = { ...config, maxOutputTokens: capped };
    return;
  }
  const capField = CAP_FIELDS[policy.api];
  const asked = body[capField];
  if (typeof asked !== "number" || !(asked <= policy.maxOutputTokens)) body[capField] = policy.maxOutputTokens;
}

/** The field of a request that caps its output. */
const CAP_FIELDS: Record<Exclude<ModelApi, "gemini">, string> = {
  anthropic: "max_tokens",
  openai: "max_output_tokens",
  "openai-chat": "max_tokens",
};

/**
 * A chat completion as the meter needs it: a streamed one reports its usage (in a last chunk, only when
 * asked), and the newer output cap field, when sent, is lowered too.
 */
function chatMetered(body: Record<string, unknown>, cap: number): void {
  if (body.stream === true) {
    const options = body.stream_options && typeof body.stream_options === "object" ? body.stream_options : {};
    body.stream_options = { ...options, include_usage: true };
  }
  const newer = body.max_completion_tokens;
  if (newer !== undefined && (typeof newer !== "number" || !(newer <= cap))) body.max_completion_tokens = cap;
}

/** The known headers, feature switches cut to their known values (a switch left with none is dropped). */
function allowedHeaders(
  api: ModelApi,
  headers: Record<string, string | string[] | undefined>,
): { headers: Record<string, string | string[]>; droppedSwitches: string[] } {
  const allowed = HEADERS[api];
  const out: Record<string, string | string[]> = {};
  const droppedSwitches: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (value === undefined || !(allowed.names.has(lower) || allowed.prefixes.some((p) => lower.startsWith(p))))
      continue;
    const known = FEATURE_SWITCHES[api][lower];
    if (!known) {
      out[lower] = value;
      continue;
    }
    const values = [value].flat().flatMap((v) => v.split(",").map((item) => item.trim()));
    for (const item of values) if (item !== "" && !known.has(item)) droppedSwitches.push(`${lower}: ${item}`);
    const kept = values.filter((item) => known.has(item));
    if (kept.length > 0) out[lower] = kept.join(",");
  }
  return { headers: out, droppedSwitches };
}

/** Whether the policy lets a request naming `model` through. */
export function allowsModel(policy: ModelPolicy, model: string): boolean {
  return policy.models.some((allowed) => namesModel(allowed, model));
}

/**
 * A request for a model the policy does not allow. A 400 (not a 403, which Claude Code reports as
 * "Failed to authenticate") and the API's own error shape: both CLIs print the message as it is.
 */
function modelRefusal(policy: ModelPolicy, model: unknown): PolicyRefusal {
  const named = JSON.stringify(model ?? null);
  const source = policy.source ? ` (${policy.source})` : "";
  return {
    status: 400,
    message: `model ${named} refused: the app allows ${policy.models.join(", ") || "no model"}${source}`,
    model: typeof model === "string" ? model : String(model ?? null),
  };
}

/** Claude Code's model aliases: it sends the model they stand for today, never the alias. */
const CLAUDE_ALIASES: Record<string, RegExp> = {
  sonnet: /^claude-(?:[\d-]+-)?sonnet-/,
  opus: /^claude-(?:[\d-]+-)?opus-/,
  haiku: /^claude-(?:[\d-]+-)?haiku-/,
  opusplan: /^claude-(?:[\d-]+-)?(?:opus|sonnet)-/,
};

/**
 * Whether a request naming `model` is one the operator configured as `allowed`: the same id, the
 * same id with a dated snapshot or a context-window suffix (`claude-sonnet-4-5-20250929`,
 * `claude-sonnet-4-5[1m]`), or a model of the family a Claude Code alias (`sonnet`, `opus`, `haiku`)
 * stands for.
 */
export function namesModel(allowed: string, model: string): boolean {
  if (model === allowed) return true;
  const alias = CLAUDE_ALIASES[allowed.toLowerCase()];
  if (alias) return alias.test(model);
  const rest = model.startsWith(allowed) ? model.slice(allowed.length) : undefined;
  return rest !== undefined && /^(?:-\d{8})?(?:\[1m\])?$/.test(rest);
}

/** An error body in the API's own shape, which the CLI prints. */
export function errorBody(api: ModelApi, status: number, message: string): string {
  const text = `no-mistakes model proxy: ${message}`;
  if (api === "gemini") return JSON.stringify({ error: { code: status, message: text, status: geminiStatus(status) } });
  if (api !== "anthropic")
    return JSON.stringify({ error: { message: text, type: "invalid_request_error", code: `no_mistakes_${status}` } });
  const type = status === 404 ? "not_found_error" : status === 403 ? "permission_error" : "invalid_request_error";
  return JSON.stringify({ type: "error", error: { type, message: text } });
}

/** The Gemini API's status word for an HTTP status. */
function geminiStatus(status: number): string {
  if (status === 400) return "INVALID_ARGUMENT";
  if (status === 403) return "PERMISSION_DENIED";
  if (status === 404) return "NOT_FOUND";
  if (status === 413) return "INVALID_ARGUMENT";
  if (status === 429) return "RESOURCE_EXHAUSTED";
  return status >= 500 ? "UNAVAILABLE" : "FAILED_PRECONDITION";
}
