import type { ModelApi } from "./model-policy.js";
import { modelPrice, priceTokens, type MeteredTokens } from "./model-prices.js";

/** What the proxy measured over one sandboxed call. */
export interface MeterReport {
  /** Input tokens, cached ones included (as turns record them). */
  tokensIn: number;
  tokensOut: number;
  /** Of tokensIn: read from the cache, and written to it. */
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Input tokens (cached included) of the largest single response: the session's size. */
  largestRequestTokens: number;
  /** Priced from the measured tokens (model-prices). */
  costUsd: number;
  /** Responses metered. */
  responses: number;
  /** Why the proxy stopped forwarding: the budget was spent. */
  stopped?: string;
  /** The first refusal of a request's model, by the proxy's policy or by the model API: a failed turn says it. */
  modelRefused?: string;
}

/** The spend a call may make before the proxy refuses further requests. */
export interface ModelBudget {
  /** Dollars left under the PR's limits when the call starts. */
  remainingUsd: number;
  /** What the refusal and the turn's error say, e.g. "$5.00 (limits.max_cost_usd)". */
  limit: string;
}

/**
 * Counts the usage of every response the proxy passes and prices it; once the call has spent its
 * budget, `stopped` says so and the proxy forwards nothing more.
 */
export class ModelMeter {
  readonly #api: ModelApi;
  readonly #budget: ModelBudget | undefined;
  readonly #report: MeterReport = {
    tokensIn: 0,
    tokensOut: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    largestRequestTokens: 0,
    costUsd: 0,
    responses: 0,
  };

  constructor(api: ModelApi, budget?: ModelBudget) {
    this.#api = api;
    this.#budget = budget;
    if (budget && budget.remainingUsd <= 0) this.#report.stopped = budgetReason(budget, 0);
  }

  get report(): MeterReport {
    return { ...this.#report };
  }

  /** Why no further request may go upstream, or undefined. */
  get stopped(): string | undefined {
    return this.#report.stopped;
  }

  /** Keeps the first refusal of a model the call met. */
  noteModelRefused(reason: string): void {
    this.#report.modelRefused ??= reason;
  }

  /** A reader for one response of `model`: feed it the body, then end it. */
  reader(model: string, streamed: boolean, estimate: MeteredTokens): UsageReader {
    return new UsageReader(this.#api, streamed, (tokens) => this.#add(model, tokens ?? estimate));
  }

  #add(model: string, tokens: MeteredTokens): void {
    const r = this.#report;
    r.responses++;
    const input = tokens.input + tokens.cacheRead + tokens.cacheWrite;
    r.tokensIn += input;
    r.tokensOut += tokens.output;
    r.cacheReadTokens += tokens.cacheRead;
    r.cacheWriteTokens += tokens.cacheWrite;
    r.largestRequestTokens = Math.max(r.largestRequestTokens, input);
    r.costUsd += priceTokens(modelPrice(this.#api, model), tokens);
    if (this.#budget && r.stopped === undefined && r.costUsd >= this.#budget.remainingUsd)
      r.stopped = budgetReason(this.#budget, r.costUsd);
  }
}

function budgetReason(budget: ModelBudget, spent: number): string {
  return `the PR's model budget is spent (this turn used $${spent.toFixed(2)} of the $${Math.max(0, budget.remainingUsd).toFixed(2)} left of ${budget.limit})`;
}

/** JSON bodies larger than this are not parsed (their usage is estimated). */
const MAX_JSON_BYTES = 16 * 1024 * 1024;

/**
 * Reads `usage` from one response body: server-sent events (Anthropic message_start/message_delta,
 * OpenAI response.completed/incomplete/failed) or one JSON object. `done` gets undefined when the body
 * carried none (cut short, unreadable), and the meter then charges the estimate.
 */
export class UsageReader {
  readonly #api: ModelApi;
  readonly #streamed: boolean;
  readonly #done: (tokens: MeteredTokens | undefined) => void;
  #pending = "";
  #json: Buffer[] = [];
  #jsonBytes = 0;
  #tokens: MeteredTokens | undefined;
  #ended = false;

  constructor(api: ModelApi, streamed: boolean, done: (tokens: MeteredTokens | undefined) => void) {
    this.#api = api;
    this.#streamed = streamed;
    this.#done = done;
  }

  push(chunk: Buffer): void {
    if (!this.#streamed) {
      this.#jsonBytes += chunk.length;
      if (this.#jsonBytes <= MAX_JSON_BYTES) this.#json.push(chunk);
      return;
    }
    this.#pending += chunk.toString("utf8");
    let newline: number;
    while ((newline = this.#pending.indexOf("\n")) >= 0) {
      const line = this.#pending.slice(0, newline).trim();
      this.#pending = this.#pending.slice(newline + 1);
      if (line.startsWith("data:")) this.#event(line.slice(5).trim());
    }
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#streamed) {
      const last = this.#pending.trim();
      if (last.startsWith("data:")) this.#event(last.slice(5).trim());
    } else if (this.#jsonBytes <= MAX_JSON_BYTES) {
      const body = parse(Buffer.concat(this.#json).toString("utf8"));
      const usage = this.#api === "gemini" ? body?.usageMetadata : body?.usage;
      if (usage && typeof usage === "object") this.#tokens = this.#read(usage as Record<string, unknown>, undefined);
    }
    this.#done(this.#tokens);
  }

  #event(data: string): void {
    const event = parse(data);
    if (!event) return;
    if (this.#api === "gemini") {
      // each chunk may carry the response's usage so far: the last one is the whole response's
      const usage = event.usageMetadata;
      if (usage && typeof usage === "object") this.#tokens = this.#read(usage as Record<string, unknown>, undefined);
      return;
    }
    if (this.#api === "anthropic") {
      const usage =
        event.type === "message_start"
          ? (event.message as Record<string, unknown> | undefined)?.usage
          : event.type === "message_delta"
            ? event.usage
            : undefined;
      if (usage && typeof usage === "object") this.#tokens = this.#read(usage as Record<string, unknown>, this.#tokens);
      return;
    }
    if (this.#api === "openai-chat") {
      // the last chunk of a chat completion stream carries the usage (stream_options.include_usage)
      if (event.usage && typeof event.usage === "object")
        this.#tokens = this.#read(event.usage as Record<string, unknown>, undefined);
      return;
    }
    if (typeof event.type === "string" && /^response\.(completed|incomplete|failed)$/.test(event.type)) {
      const usage = (event.response as Record<string, unknown> | undefined)?.usage;
      if (usage && typeof usage === "object") this.#tokens = this.#read(usage as Record<string, unknown>, undefined);
    }
  }

  /** One usage object; Anthropic's later ones (message_delta) raise what the earlier said, never lower it. */
  #read(usage: Record<string, unknown>, before: MeteredTokens | undefined): MeteredTokens {
    if (this.#api === "gemini") {
      // promptTokenCount includes the cached tokens; thinking is billed as output
      const prompt = count(usage.promptTokenCount);
      const cached = Math.min(prompt, count(usage.cachedContentTokenCount));
      const output = count(usage.candidatesTokenCount) + count(usage.thoughtsTokenCount);
      return { input: prompt - cached, cacheRead: cached, cacheWrite: 0, output };
    }
    if (this.#api === "anthropic") {
      return {
        input: Math.max(before?.input ?? 0, count(usage.input_tokens)),
        cacheRead: Math.max(before?.cacheRead ?? 0, count(usage.cache_read_input_tokens)),
        cacheWrite: Math.max(before?.cacheWrite ?? 0, count(usage.cache_creation_input_tokens)),
        output: Math.max(before?.output ?? 0, count(usage.output_tokens)),
      };
    }
    const chat = this.#api === "openai-chat";
    const input = count(chat ? usage.prompt_tokens : usage.input_tokens);
    const details = (chat ? usage.prompt_tokens_details : usage.input_tokens_details) as
      Record<string, unknown> | undefined;
    const cached = Math.min(input, count(details?.cached_tokens));
    const output = count(chat ? usage.completion_tokens : usage.output_tokens);
    return { input: input - cached, cacheRead: cached, cacheWrite: 0, output };
  }
}

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}
