import type { GoldenPr } from "./golden-pr.js";

/** A pull request of the backtest: its commits, the pushes to replay, and its real issues when a golden file names it. */
export interface BacktestPr {
  /** Stable across runs (the state file and reports key on it): `#12`, or `<base>..<head>` abbreviated. */
  id: string;
  /** The run's PR number: the real one when known, else one derived from the head commit. */
  number: number;
  title: string;
  baseSha: string;
  headSha: string;
  /** The heads reviewed in order: the first as `opened`, each next as a `synchronize`; the last is headSha. */
  pushes: string[];
  golden?: GoldenPr;
}
