import type { EnvConfig } from "../config/env/env-config.js";
import { fail, pass, type DoctorCheck } from "./doctor-check.js";

const NAMES = {
  anthropic: { name: "Anthropic key", key: "ANTHROPIC_API_KEY", base: "ANTHROPIC_BASE_URL" },
  openai: { name: "OpenAI key", key: "OPENAI_API_KEY", base: "OPENAI_BASE_URL" },
  gemini: { name: "Gemini key", key: "GEMINI_API_KEY", base: "GOOGLE_GEMINI_BASE_URL" },
} as const;

/**
 * The cheapest call each provider authenticates: Anthropic counts tokens (free) for `model`, the id the
 * CLI sends (so a model the provider does not serve shows here too), OpenAI lists models, the Gemini API
 * describes `model`.
 */
export async function checkModelKey(
  provider: "anthropic" | "openai" | "gemini",
  agent: EnvConfig["agent"],
  model?: string,
  timeoutMs = 15_000,
): Promise<DoctorCheck> {
  const { name, key: setting, base: baseSetting } = NAMES[provider];
  const key = agent[provider].apiKey;
  if (!key) return fail(name, `${setting} is not set`, `set ${setting}`);
  const base = (agent[provider].baseUrl ?? DEFAULT_BASES[provider]).replace(/\/+$/, "");
  const request =
    provider === "gemini"
      ? new Request(`${base}/v1beta/models/${encodeURIComponent(model ?? agent.model ?? "gemini-2.5-pro")}`, {
          headers: { "x-goog-api-key": key },
        })
      : provider === "anthropic"
        ? new Request(`${base}/v1/messages/count_tokens`, {
            method: "POST",
            headers: { "x-api-key": key, "anthropic-version": "2023-06-01", "content-type": "application/json" },
            body: JSON.stringify({
              model: model ?? agent.model ?? "claude-sonnet-4-5",
              messages: [{ role: "user", content: "ping" }],
            }),
          })
        : new Request(`${base}/models`, { headers: { authorization: `Bearer ${key}` } });
  let status: number;
  try {
    const response = await fetch(request, { signal: AbortSignal.timeout(timeoutMs) });
    status = response.status;
    await response.body?.cancel();
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    return fail(name, `${request.url} did not answer (${why})`, `check the network, or ${baseSetting}`);
  }
  if (status >= 200 && status < 300) return pass(name, `accepted by ${new URL(request.url).origin}`);
  // the Gemini API answers a key it does not know with 400 (API_KEY_INVALID)
  if (status === 401 || status === 403 || (status === 400 && provider === "gemini"))
    return fail(name, `rejected by ${new URL(request.url).origin} (${status})`, `set ${setting} to a valid key`);
  if (status === 404 && provider !== "openai")
    return fail(
      name,
      `${new URL(request.url).origin} does not serve the model ${model ?? agent.model ?? (provider === "gemini" ? "gemini-2.5-pro" : "claude-sonnet-4-5")} to this key (404)`,
      "set AGENT_MODEL to a model the key may use",
    );
  return fail(
    name,
    `${request.url} answered ${status}`,
    `check ${setting}${agent.model ? " and AGENT_MODEL" : ""} and the provider's status`,
  );
}

const DEFAULT_BASES = {
  anthropic: "https://api.anthropic.com",
  openai: "https://api.openai.com/v1",
  gemini: "https://generativelanguage.googleapis.com",
} as const;
