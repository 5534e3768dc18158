import type { PrKey } from "./pr-key.js";

/** One real issue of a pull request, as a golden file states it. */
export interface GoldenIssue {
  /** What the issue is, in words (the benchmark's `comment`). */
  comment: string;
  /** Lower-cased as written (`critical`, `high`, `medium`, `low`, or a team's own words); `unspecified` when absent. */
  severity: string;
  /** Where it is, when the file says (a team's own set): what a location-only match needs. */
  path?: string;
  line?: number;
}

/** A pull request of a golden file and its real issues. */
export interface GoldenPr {
  key: PrKey;
  title?: string;
  issues: GoldenIssue[];
  /** Why the file itself doubts this PR (the benchmark's `az_comment`): such a PR is not scored. */
  flag?: string;
}
