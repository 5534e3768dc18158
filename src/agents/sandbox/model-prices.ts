import type { ModelApi } from "./model-policy.js";

/** Dollars per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  /** Tokens read from the prompt cache. */
  cacheRead: number;
  /** Tokens written to the prompt cache (Anthropic). */
  cacheWrite: number;
}

/** Tokens of one response, as the proxy read them from its `usage`. */
export interface MeteredTokens {
  /** Uncached input tokens. */
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

const anthropic = (input: number, output: number): ModelPrice => ({
  input,
  output,
  cacheRead: input / 10,
  cacheWrite: input * 1.25,
});
/** Gemini's prices for prompts up to 200k tokens; cached input is billed at its cache price, no write charge. */
const gemini = (input: number, output: number, cached: number): ModelPrice => ({
  input,
  output,
  cacheRead: cached,
  cacheWrite: input,
});
const openai = (input: number, output: number, cached: number): ModelPrice => ({
  input,
  output,
  cacheRead: cached,
  cacheWrite: input,
});

/**
 * List prices by model id prefix (the longest matching prefix wins). A model that matches none is
 * priced as the dearest of its API, so an unknown model can only make the meter stop a turn early.
 */
const PRICES: Record<Exclude<ModelApi, "openai-chat">, Array<[string, ModelPrice]>> = {
  anthropic: [
    ["claude-opus-4-5", anthropic(5, 25)],
    ["claude-opus-4-6", anthropic(5, 25)],
    ["claude-opus-4-7", anthropic(5, 25)],
    ["claude-opus-4-8", anthropic(5, 25)],
    ["claude-opus-4", anthropic(15, 75)],
    ["claude-3-opus", anthropic(15, 75)],
    ["claude-sonnet-5", anthropic(3, 15)],
    ["claude-sonnet-4", anthropic(3, 15)],
    ["claude-3-7-sonnet", anthropic(3, 15)],
    ["claude-3-5-sonnet", anthropic(3, 15)],
    ["claude-haiku-4", anthropic(1, 5)],
    ["claude-3-5-haiku", anthropic(0.8, 4)],
  ],
  openai: [
    ["gpt-5-nano", openai(0.05, 0.4, 0.005)],
    ["gpt-5-mini", openai(0.25, 2, 0.025)],
    ["gpt-5", openai(1.25, 10, 0.125)],
    ["gpt-4.1", openai(2, 8, 0.5)],
    ["o3", openai(2, 8, 0.5)],
    ["o4-mini", openai(1.1, 4.4, 0.275)],
  ],
  gemini: [
    ["gemini-3-pro", gemini(2, 12, 0.2)],
    ["gemini-2.5-pro", gemini(1.25, 10, 0.125)],
    ["gemini-2.5-flash", gemini(0.3, 2.5, 0.03)],
    ["gemini-2.5-flash-lite", gemini(0.1, 0.4, 0.01)],
    ["gemini-2.0-flash", gemini(0.1, 0.4, 0.025)],
  ],
};

const DEAREST: Record<Exclude<ModelApi, "openai-chat">, ModelPrice> = {
  anthropic: anthropic(15, 75),
  openai: openai(15, 60, 7.5),
  // the dearest tier of the dearest Gemini model (prompts over 200k tokens)
  gemini: gemini(4, 18, 0.4),
};

/** The price of a model: the longest known prefix, else the dearest of its API. */
export function modelPrice(api: ModelApi, model: string): ModelPrice {
  // an OpenAI-compatible server is priced as OpenAI's own models (a model of the team's own: the dearest)
  const list = api === "openai-chat" ? "openai" : api;
  let best: [string, ModelPrice] | undefined;
  for (const entry of PRICES[list])
    if (model.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  return best?.[1] ?? DEAREST[list];
}

/** What tokens cost, in dollars. */
export function priceTokens(price: ModelPrice, tokens: MeteredTokens): number {
  return (
    (tokens.input * price.input +
      tokens.cacheRead * price.cacheRead +
      tokens.cacheWrite * price.cacheWrite +
      tokens.output * price.output) /
    1_000_000
  );
}
