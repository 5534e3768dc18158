import type { BacktestConfiguration } from "../configurations/backtest-configuration.js";

/** What `npm run backtest` was asked (parse-backtest-args), in one object. */
export interface BacktestOptions {
  /** The local clone. */
  repo: string;
  golden?: string;
  /**
   * The golden file is the app's own history of the repository (`--repo-name`, else the clone's origin): its
   * merged PRs' findings, fixed = a real issue. Read from this database (the app's DATABASE_URL, or a PGlite
   * data directory).
   */
  fromHistory?: { databaseUrl?: string; pgliteDir?: string };
  pairs?: string;
  /** The PRs are the merge commits of `branch` (at most `limit`). */
  merges: boolean;
  /** The branch whose history holds the merges and squash commits, and whose tip holds the config: default HEAD. */
  branch: string;
  limit?: number;
  /** Each PR's commits reviewed as pushes, one after another (the first `opened`, then `synchronize`). */
  replay: boolean;
  maxPushes?: number;
  /** PRs named by the URL of a repository the clone's remotes do not name are looked up by number anyway (default: skipped). */
  acceptOtherRepos: boolean;
  out: string;
  maxSpendUsd?: number;
  /** One (the team's) or two (A and B) configurations. */
  configurations: BacktestConfiguration[];
  /** `agent`: the judge (an agent asked per pair); `location`: path and line alone, no agent call. */
  matching: "judge" | "location";
  /** The judge's environment over the first configuration's. */
  judgeEnv: Record<string, string>;
  lineTolerance: number;
  resamples: number;
  seed: number;
  /** `owner/repo` the runs carry (default: the golden file's, else `backtest/<clone's folder>`). */
  repoName?: string;
  /** A PostgreSQL of the backtest's own; default an embedded PGlite under `out`. */
  databaseUrl?: string;
  logLevel: string;
}
