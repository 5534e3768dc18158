import type { EnvConfig } from "../config/env/env-config.js";
import type { OpenCodeAgent } from "../agents/opencode/index.js";
import { fail, pass, type DoctorCheck } from "./doctor-check.js";

/** The pinned OpenCode binary starts and says its version. */
export async function checkOpenCodeBinary(agent: OpenCodeAgent): Promise<DoctorCheck> {
  try {
    return pass("opencode binary", `opencode ${await agent.version()}`);
  } catch (error) {
    return fail(
      "opencode binary",
      (error as Error).message,
      "run npm ci on linux x64 (the opencode-linux-x64 package), or point AGENT_CLI at an opencode binary",
    );
  }
}

/**
 * OPENCODE_API_KEY against OPENCODE_PROVIDER's API at OPENCODE_BASE_URL, by its cheapest authenticated call:
 * Anthropic counts tokens (free) for the model, an OpenAI-compatible server lists its models.
 */
export async function checkOpenCodeKey(agent: EnvConfig["agent"], timeoutMs = 15_000): Promise<DoctorCheck> {
  const { provider, apiKey, baseUrl } = agent.opencode;
  const name = "OpenCode key";
  if (!apiKey && !baseUrl) return fail(name, "OPENCODE_API_KEY is not set", "set OPENCODE_API_KEY");
  const anthropic = provider === "anthropic";
  const base = (baseUrl ?? (anthropic ? "https://api.anthropic.com" : "https://api.openai.com/v1")).replace(/\/+$/, "");
  const model = agent.model ?? "claude-sonnet-4-5";
  const auth: Record<string, string> = apiKey
    ? anthropic
      ? { "x-api-key": apiKey }
      : { authorization: `Bearer ${apiKey}` }
    : {};
  const request = anthropic
    ? new Request(`${base}/v1/messages/count_tokens`, {
        method: "POST",
        headers: { ...auth, "anthropic-version": "2023-06-01", "content-type": "application/json" },
        body: JSON.stringify({ model, messages: [{ role: "user", content: "ping" }] }),
      })
    : new Request(`${base}/models`, { headers: auth });
  let status: number;
  try {
    const response = await fetch(request, { signal: AbortSignal.timeout(timeoutMs) });
    status = response.status;
    await response.body?.cancel();
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return fail(
      name,
      `${request.url} did not answer (${cause?.code ?? cause?.message ?? (error as Error).message})`,
      "check the network, or OPENCODE_BASE_URL",
    );
  }
  const origin = new URL(request.url).origin;
  if (status >= 200 && status < 300) return pass(name, `accepted by ${origin} (OPENCODE_PROVIDER=${provider})`);
  if (status === 401 || status === 403)
    return fail(
      name,
      `rejected by ${origin} (${status})`,
      "set OPENCODE_API_KEY to a valid key of OPENCODE_PROVIDER's API",
    );
  if (status === 404 && anthropic)
    return fail(
      name,
      `${origin} does not serve the model ${model} to this key (404)`,
      "set AGENT_MODEL to a model the key may use",
    );
  return fail(
    name,
    `${request.url} answered ${status}`,
    "check OPENCODE_PROVIDER, OPENCODE_BASE_URL and OPENCODE_API_KEY",
  );
}
