import type { BacktestPr } from "./backtest-pr.js";

/**
 * The line said when location matching meets real issues that name no path (the public benchmark's name
 * none): those cannot be matched, so recall counts them as missed whatever the reviewer found. Undefined
 * when every issue has a path.
 */
export function pathlessIssuesWarning(prs: readonly BacktestPr[]): string | undefined {
  const issues = prs.flatMap((p) => p.golden?.issues ?? []);
  const pathless = issues.filter((i) => !i.path).length;
  if (pathless === 0) return undefined;
  const which =
    pathless === issues.length
      ? `none of the golden file's ${issues.length} real issue${issues.length === 1 ? "" : "s"} names a path, so recall is 0 by construction`
      : `${pathless} of the golden file's ${issues.length} real issues name no path: they cannot be matched, and count as missed`;
  return `warning: --match location: ${which} (the judge, the default, matches by meaning; or give the issues "path" and "line")`;
}
