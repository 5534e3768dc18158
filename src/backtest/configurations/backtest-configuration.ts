/**
 * One configuration a backtest runs: the app's environment over the process's (AGENT, AGENT_MODEL,
 * AGENT_ARGS, AGENT_SANDBOX, the model key …), optionally a `.github/no-mistakes.yml` used instead of
 * the clone's, and optionally a file of extra reviewer instructions appended to that config's
 * `review.instructions` (a prompt variant).
 */
export interface BacktestConfiguration {
  label: string;
  env: Record<string, string>;
  configFile?: string;
  instructionsFile?: string;
}
