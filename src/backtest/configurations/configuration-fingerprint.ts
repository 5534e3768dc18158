import { createHash } from "node:crypto";
import type { EnvConfig } from "../../config/env/env-config.js";

/** Settings whose values never enter a fingerprint or a report (only whether they are set); `…_TOKENS` budgets are no secret. */
export const SECRET_SETTING = /KEY|SECRET|PASSWORD|TOKEN(?!S)/i;

/** Everything that changes what a configuration's reviews are, apart from each PR's own commits. */
export interface FingerprintInputs {
  /** The agent as the app resolved it from the process's environment and the configuration's (agentSettings). */
  agent: Record<string, unknown>;
  /** The configuration's own environment over the process's (secrets are left out by name). */
  env: Record<string, string>;
  /** The `.github/no-mistakes.yml` the reviews read (its --config file, else the clone's at --branch, --instructions appended); null when there is none. */
  configText: string | null;
  /** The fake agent's script, when the agent is the fake one. */
  scenario: string | null;
  /** --branch, --replay and --max-pushes: which commits a PR id stands for, and how they are pushed. */
  branch: string;
  replay: boolean;
  maxPushes: number | null;
  /** `owner/repo` the runs carry (--repo-name, or found): the review prompt names it. */
  repoName: string;
  /** The app's reviewing code (appCodeIdentity). */
  app: string;
}

/** The resolved settings that shape an agent's reviews, whichever environment set them: no key, no path of the backtest's own. */
export function agentSettings(env: EnvConfig): Record<string, unknown> {
  const a = env.agent;
  return {
    name: a.name,
    verifier: a.verifier,
    model: a.model ?? null,
    args: a.extraArgs,
    timeoutMs: a.timeoutMs,
    maxOutputTokens: a.maxOutputTokens,
    sessionMaxTokens: a.sessionMaxTokens,
    cacheTtlMs: a.cacheTtlMs,
    serverTools: a.serverTools,
    cli: a.cli ?? null,
    sandbox: a.sandbox,
    limits: a.limits,
    anthropicBaseUrl: a.anthropic.baseUrl ?? null,
    openaiBaseUrl: a.openai.baseUrl ?? null,
    workspaceMaxBytes: env.workspaceMaxBytes,
  };
}

/** A sha256 of the inputs: stored results of another fingerprint are not reused (BacktestState). */
export function configurationFingerprint(inputs: FingerprintInputs): string {
  const sorted = (o: Record<string, unknown>) => Object.entries(o).sort(([x], [y]) => x.localeCompare(y));
  return createHash("sha256")
    .update(
      // In a fixed order: the same inputs give the same fingerprint however they were assembled.
      JSON.stringify([
        sorted(inputs.agent),
        sorted(inputs.env).filter(([k]) => !SECRET_SETTING.test(k)),
        inputs.configText,
        inputs.scenario,
        inputs.branch,
        inputs.replay,
        inputs.maxPushes,
        inputs.repoName,
        inputs.app,
      ]),
    )
    .digest("hex");
}
