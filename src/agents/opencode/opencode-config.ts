/** Which API the app's provider for OpenCode speaks (OPENCODE_PROVIDER). */
export type OpenCodeProvider = "anthropic" | "openai";

/** The provider id and the variable its key is read from, inside OpenCode's config. */
export const PROVIDER_ID = "no-mistakes";
export const API_KEY_ENV = "NO_MISTAKES_MODEL_KEY";

export interface OpenCodeConfigInput {
  provider: OpenCodeProvider;
  /** The API base the CLI is given (the sandbox's bridge, or the upstream when unconfined), without /v1. */
  baseUrl: string;
  model: string;
  withKey: boolean;
  maxOutputTokens: number;
  /** The reviewer may not edit; the fixer may, inside the workspace. */
  mayEdit: boolean;
}

/**
 * OpenCode's global config, the app's: one provider of ours and its one model, nothing fetched or shared,
 * no snapshots, LSP servers, formatters, MCP servers, plugins or extra instructions; web fetches off (the
 * sandbox has no network anyway); files outside the workspace refused.
 */
export function openCodeConfig(input: OpenCodeConfigInput): string {
  const npm = input.provider === "anthropic" ? "@ai-sdk/anthropic" : "@ai-sdk/openai-compatible";
  // @ai-sdk/anthropic appends /messages to its base, @ai-sdk/openai-compatible /chat/completions
  const baseURL = input.provider === "anthropic" ? `${input.baseUrl.replace(/\/+$/, "")}/v1` : input.baseUrl;
  const model = `${PROVIDER_ID}/${input.model}`;
  const config = {
    autoupdate: false,
    share: "disabled",
    snapshot: false,
    lsp: false,
    formatter: false,
    model,
    small_model: model,
    enabled_providers: [PROVIDER_ID],
    provider: {
      [PROVIDER_ID]: {
        npm,
        name: "no-mistakes",
        options: { baseURL, ...(input.withKey ? { apiKey: `{env:${API_KEY_ENV}}` } : {}) },
        models: { [input.model]: { name: input.model, limit: { context: 1_000_000, output: input.maxOutputTokens } } },
      },
    },
    mcp: {},
    plugin: [],
    instructions: [],
    tools: { webfetch: false },
    permission: {
      external_directory: "deny",
      ...(input.mayEdit ? {} : { edit: "deny" }),
    },
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}
