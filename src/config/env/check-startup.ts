import { ConfigError } from "../config-error.js";
import { dataDirProblem } from "./data-dir-problem.js";
import { envFileProblem } from "./env-file-problem.js";
import { readEnvConfig, readEnvFilePath, readPlaces, type EnvConfig } from "./env-config.js";
import { portProblem } from "./port-problem.js";
import { privateKeyProblem } from "./private-key-problem.js";
import { readPrivateKey } from "./read-private-key.js";

/**
 * The configuration, checked against the machine before anything starts: the environment's values
 * (readEnvConfig), then whether DATA_DIR can be written (and, for the setup flow, ENV_FILE), the App's
 * private key signs a JWT and PORT (and METRICS_PORT) are free. Every problem is reported in one ConfigError, one line each, so one start shows them all.
 */
export async function checkStartup(env: NodeJS.ProcessEnv = process.env): Promise<EnvConfig> {
  const problems: string[] = [];
  let config: EnvConfig | undefined;
  try {
    config = readEnvConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
  }
  const reported = (setting: string) => problems.some((p) => p.startsWith(setting));
  const { dataDir, host, port } = readPlaces(env);
  if (dataDir !== undefined) push(problems, dataDirProblem(dataDir));
  // Without APP_ID the setup flow runs (a worker refuses instead): where it will save the App is checked first.
  if (!env.APP_ID?.trim() && !reported("APP_ID") && config?.role !== "worker")
    push(problems, envFileProblem(readEnvFilePath(env)));
  const { key, from } = readPrivateKey(env);
  // Without APP_ID the key is not used (the setup flow runs); with it, every GitHub call needs the key.
  if (key && env.APP_ID?.trim() && !reported("PRIVATE_KEY"))
    push(
      problems,
      privateKeyProblem(key, from === "PRIVATE_KEY" ? from : `PRIVATE_KEY_PATH: "${env.PRIVATE_KEY_PATH}"`),
    );
  if (host !== undefined && port !== undefined) push(problems, await portProblem(host, port));
  const metrics = config?.metrics.server;
  if (metrics) push(problems, await portProblem(metrics.host, metrics.port, "METRICS_PORT"));
  if (problems.length > 0 || !config) throw new ConfigError("The environment", problems);
  return config;
}

function push(problems: string[], problem: string | undefined): void {
  if (problem) problems.push(problem);
}
