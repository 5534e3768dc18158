import type { ModelPolicy } from "./model-policy.js";

/**
 * How a sandboxed agent reaches its model API: the sandbox has no network of its own, so the CLI
 * talks plain HTTP to a bridge inside the sandbox, which hands each connection to the app's model
 * proxy on a unix socket; the proxy applies `policy`, adds the real API key and forwards to
 * `upstream`. The key never enters the sandbox.
 */
export interface ModelRoute {
  /** The real API base, e.g. https://api.anthropic.com or https://api.openai.com/v1 (no trailing slash needed). */
  upstream: string;
  /** The header that carries the key upstream, and its value; absent = no key is added. */
  auth?: { header: string; value: string };
  /** Which paths, models, output caps, tools and headers pass. */
  policy: ModelPolicy;
}

/** What the CLI inside the sandbox is told: a base URL and a key that is only a placeholder. */
export interface ModelEndpoint {
  baseUrl: string;
  apiKey: string | undefined;
}
