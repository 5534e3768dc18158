/** Where a backtest talks: the report on stdout, progress on stderr; the environment its configurations start from. */
export interface BacktestIo {
  env: NodeJS.ProcessEnv;
  print: (text: string) => void;
  progress: (line: string) => void;
  /** Aborted: the review in progress stops, the report covers what finished, a rerun resumes. */
  signal?: AbortSignal;
}
