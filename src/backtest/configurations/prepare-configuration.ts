// The backtest's configurations room: each agent/model/prompt configuration made ready (prepareConfiguration,
// this file) — its environment without the GitHub App's settings, its agent and sessions built as the app
// builds them, the config file and extra instructions its reviews read, its checks, and the fingerprint that
// says when stored results can be reused. It imports the clone room.

import { RunSessions } from "../../pipeline/index.js";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { Logger } from "pino";
import type { AgentModel } from "../../agents/agent-model.js";
import { createAgent, createSandbox } from "../../agents/create-agent.js";
import type { Agent } from "../../agents/types.js";
import { ConfigError } from "../../config/config-error.js";
import { readEnvConfig, type EnvConfig } from "../../config/env/env-config.js";
import type { Database } from "../../db/database.js";
import { REPO_CONFIG_PATH } from "../../config/repo/repo-config.js";
import { checkAgentSandbox } from "../../agents/sandbox/check-agent-sandbox.js";
import type { Checks } from "../../checks/index.js";
import type { BacktestConfiguration } from "./backtest-configuration.js";
import { backtestChecks } from "./backtest-checks.js";
import { backtestEnv } from "./backtest-env.js";
import type { CloneGit } from "../clone/clone-git.js";
import { agentSettings, configurationFingerprint } from "./configuration-fingerprint.js";
import type { PreparedConfiguration } from "./prepared-configuration.js";
import { readCloneFile } from "../clone/read-clone-file.js";
import { withExtraInstructions } from "./with-extra-instructions.js";

/** What the whole backtest shares that changes every configuration's reviews. */
export interface ReviewSettings {
  git: CloneGit;
  /** --branch: where the clone's `.github/no-mistakes.yml` is read (as the app reads the default branch's). */
  branch: string;
  replay: boolean;
  maxPushes?: number;
  /** `owner/repo` the runs carry: the review prompt names it. */
  repoName: string;
  /** appCodeIdentity(). */
  appIdentity: string;
}

/**
 * The configuration's agent built as the app builds it (AGENT, AGENT_MODEL, …; the sandbox probed when
 * the agent is real, as at the app's start), its RunSessions on the backtest's database, the
 * `.github/no-mistakes.yml` its reviews read (read once, here: what the fingerprint holds is what the
 * reviews see), and its fingerprint. The model key must be there: a backtest with no key would fail every PR.
 */
export async function prepareConfiguration(
  c: BacktestConfiguration,
  deps: { db: Database; log: Logger; baseEnv: NodeJS.ProcessEnv; outDir: string; review: ReviewSettings },
): Promise<PreparedConfiguration> {
  const dataDir = resolve(deps.outDir, "configurations", slug(c.label));
  const env = readEnvConfig(backtestEnv(dataDir, deps.baseEnv, c.env));
  requireModelKey(env, c.label);
  const sandbox = createSandbox(env);
  await checkAgentSandbox(env, sandbox, deps.log);
  const agent = createAgent(env, sandbox);
  const model = await modelOf(agent, c.label);
  const { review } = deps;
  const configText = await configTextOf(c, review);
  const scenario =
    env.agent.name === "fake" && env.agent.fake.scenario ? await readFile(env.agent.fake.scenario, "utf8") : undefined;
  const fingerprint = configurationFingerprint({
    agent: agentSettings(env),
    env: c.env,
    configText: configText ?? null,
    scenario: scenario ?? null,
    branch: review.branch,
    replay: review.replay,
    maxPushes: review.maxPushes ?? null,
    repoName: review.repoName,
    app: review.appIdentity,
  });
  const repositoryId = parseInt(
    createHash("sha256").update(`${c.label}\0${fingerprint}`).digest("hex").slice(0, 12),
    16,
  );
  const sessions = new RunSessions({
    db: deps.db,
    agent,
    log: deps.log,
    maxStateBytes: env.agent.stateMaxBytes,
    sessionBudgetTokens: env.agent.sessionMaxTokens,
    cacheTtlMs: env.agent.cacheTtlMs,
  });
  return {
    label: c.label,
    fingerprint,
    repositoryId,
    dataDir,
    env,
    overrides: c.env,
    agent,
    sessions,
    ...withChecks(backtestChecks(env, sandbox, dataDir)),
    configText,
    describe: describeConfiguration(c, env, model),
  };
}

/** The model key the configuration's agent needs: a backtest with no key would fail every PR. */
function requireModelKey(env: EnvConfig, label: string): void {
  const problems: string[] = [];
  if (env.agent.name === "claude" && !env.agent.anthropic.apiKey)
    problems.push(
      "ANTHROPIC_API_KEY: required with AGENT=claude (or give the configuration AGENT=codex and OPENAI_API_KEY)",
    );
  if (env.agent.name === "codex" && !env.agent.openai.apiKey)
    problems.push("OPENAI_API_KEY: required with AGENT=codex");
  if (env.agent.name === "gemini" && !env.agent.gemini.apiKey)
    problems.push("GEMINI_API_KEY: required with AGENT=gemini");
  if (problems.length > 0) throw new ConfigError(`Configuration ${label}`, problems);
}

/** The `.github/no-mistakes.yml` the configuration's reviews read: its own file, else the clone's at --branch, with its extra instructions. */
async function configTextOf(c: BacktestConfiguration, review: ReviewSettings): Promise<string | undefined> {
  const ownConfig = c.configFile
    ? await readFile(c.configFile, "utf8")
    : await readCloneFile(review.git, review.branch, REPO_CONFIG_PATH);
  return c.instructionsFile
    ? withExtraInstructions(ownConfig, await readFile(c.instructionsFile, "utf8"), c.instructionsFile)
    : ownConfig;
}

/** `claude (model …), config …` for the report. */
function describeConfiguration(c: BacktestConfiguration, env: EnvConfig, model: AgentModel | undefined): string {
  return [
    `${env.agent.name}${env.agent.model ? ` (${modelText(model) ?? env.agent.model})` : ""}`,
    ...(env.agent.extraArgs.length > 0 ? [`args ${env.agent.extraArgs.join(" ")}`] : []),
    c.configFile ? `config ${c.configFile}` : "the clone's .github/no-mistakes.yml",
    ...(c.instructionsFile ? [`instructions ${c.instructionsFile}`] : []),
  ].join(", ");
}

/** The model the configuration's CLI sends (asked before any review, as the doctor does); a CLI that cannot say stops here. */
async function modelOf(agent: Agent, label: string): Promise<AgentModel | undefined> {
  try {
    return await agent.resolveModel?.();
  } catch (error) {
    throw new ConfigError(`Configuration ${label}`, [(error as Error).message]);
  }
}

/** `claude-opus-4-1, sent as claude-opus-4-8` when the CLI sends another id than the one configured. */
function modelText(model: AgentModel | undefined): string | undefined {
  if (!model) return undefined;
  return model.sent === model.configured ? model.configured : `${model.configured}, sent as ${model.sent}`;
}

function withChecks(checks: Checks | undefined): { checks?: Checks } {
  return checks ? { checks } : {};
}

function slug(label: string): string {
  return label.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "configuration";
}
