/**
 * One configuration a backtest runs: the app's environment over the process's (AGENT, AGENT_MODEL,
 * AGENT_ARGS, AGENT_SANDBOX, the model key …) and, optionally, a `.github/no-mistakes.yml` used instead of
 * the clone's (review.instructions and path_instructions are how a prompt variant is tried).
 */
export interface BacktestConfiguration {
  label: string;
  env: Record<string, string>;
  configFile?: string;
}
