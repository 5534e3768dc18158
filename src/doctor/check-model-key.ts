import type { EnvConfig } from "../config/env-config.js";
import { fail, pass, type DoctorCheck } from "./doctor-check.js";

/**
 * The cheapest call each provider authenticates: Anthropic counts tokens (free) for `model`, the id the
 * CLI sends (so a model the provider does not serve shows here too), OpenAI lists models.
 */
export async function checkModelKey(
  provider: "anthropic" | "openai",
  agent: EnvConfig["agent"],
  model?: string,
  timeoutMs = 15_000,
): Promise<DoctorCheck> {
  const name = provider === "anthropic" ? "Anthropic key" : "OpenAI key";
  const setting = provider === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
  const key = agent[provider].apiKey;
  if (!key) return fail(name, `${setting} is not set`, `set ${setting}`);
  const base = (
    agent[provider].baseUrl ?? (provider === "anthropic" ? "https://api.anthropic.com" : "https://api.openai.com/v1")
  ).replace(/\/+$/, "");
  const request =
    provider === "anthropic"
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
    return fail(
      name,
      `${request.url} did not answer (${why})`,
      `check the network, or ${provider === "anthropic" ? "ANTHROPIC_BASE_URL" : "OPENAI_BASE_URL"}`,
    );
  }
  if (status >= 200 && status < 300) return pass(name, `accepted by ${new URL(request.url).origin}`);
  if (status === 401 || status === 403)
    return fail(name, `rejected by ${new URL(request.url).origin} (${status})`, `set ${setting} to a valid key`);
  if (status === 404 && provider === "anthropic")
    return fail(
      name,
      `${new URL(request.url).origin} does not serve the model ${model ?? agent.model ?? "claude-sonnet-4-5"} to this key (404)`,
      "set AGENT_MODEL to a model the key may use",
    );
  return fail(
    name,
    `${request.url} answered ${status}`,
    `check ${setting}${agent.model ? " and AGENT_MODEL" : ""} and the provider's status`,
  );
}
