import { join, resolve } from "node:path";
import type { Logger } from "pino";
import { createAgent, createSandbox } from "../../agents/create-agent.js";
import { readEnvConfig } from "../../config/env/env-config.js";
import { checkAgentSandbox } from "../../agents/sandbox/check-agent-sandbox.js";
import { backtestEnv } from "../configurations/backtest-env.js";
import { Judge } from "./judge.js";
import type { JudgeCache } from "./judge-cache.js";
import type { PreparedConfiguration } from "../configurations/prepared-configuration.js";

/**
 * The judge: the first configuration's agent settings (its AGENT, AGENT_MODEL, key, sandbox) with the
 * judge's own over them (`--judge-env`), without the GitHub App's settings (backtestEnv), built as the
 * app builds an agent, working in an empty directory under the backtest's output. Its identity in the
 * cache is its agent, model and arguments.
 */
export async function prepareJudge(deps: {
  first: PreparedConfiguration;
  judgeEnv: Record<string, string>;
  baseEnv: NodeJS.ProcessEnv;
  outDir: string;
  cache: JudgeCache;
  log: Logger;
  signal: AbortSignal;
}): Promise<Judge> {
  const dataDir = resolve(deps.outDir, "judge");
  const env = readEnvConfig(backtestEnv(dataDir, deps.baseEnv, deps.first.overrides, deps.judgeEnv));
  const sandbox = createSandbox(env);
  await checkAgentSandbox(env, sandbox, deps.log);
  const agent = createAgent(env, sandbox);
  return new Judge({
    agent,
    identity: JSON.stringify([env.agent.name, env.agent.model ?? null, env.agent.extraArgs]),
    cache: deps.cache,
    workDir: join(dataDir, "work"),
    timeoutMs: env.agent.timeoutMs,
    log: deps.log.child({ role: "judge" }),
    signal: deps.signal,
  });
}
