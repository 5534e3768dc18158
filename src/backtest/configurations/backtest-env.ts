/**
 * The app's settings only the GitHub App needs — a backtest posts nothing — and NODE_ENV, whose production
 * checks require them: left out, or the app's own production .env would stop the backtest.
 */
const APP_ONLY = ["APP_ID", "PRIVATE_KEY", "PRIVATE_KEY_PATH", "WEBHOOK_SECRET", "NODE_ENV"];

/**
 * The environment a backtest's agent (a configuration's reviewer, or the judge) is built from: `layers`
 * one over the other (the process's first), the GitHub App's settings left out, and DATA_DIR its own.
 */
export function backtestEnv(
  dataDir: string,
  ...layers: readonly (NodeJS.ProcessEnv | Record<string, string>)[]
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = Object.assign({}, ...layers, { DATA_DIR: dataDir });
  for (const name of APP_ONLY) delete env[name];
  return env;
}
