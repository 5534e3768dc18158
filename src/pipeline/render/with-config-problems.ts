import type { ConfigProblem } from "../../config/repo/config-problem.js";
import type { CheckConclusion } from "../../github/github-client.js";

/**
 * A finished check run's verdict with the config files' problems where the checks list shows them: in
 * its title (`… · 1 config problem in .github/no-mistakes.yml`), and a success lowered to neutral — a
 * setting the maintainers wrote was left out, so the check must not look fully green, yet a typo on the
 * default branch (which the PR's author cannot fix) does not fail every PR. A failure stays a failure.
 */
export function withConfigProblems<T extends { title: string; conclusion: CheckConclusion }>(
  verdict: T,
  problems: readonly ConfigProblem[],
): T {
  if (problems.length === 0) return verdict;
  return {
    ...verdict,
    title: `${verdict.title} · ${configProblemsTitle(problems)}`,
    conclusion: verdict.conclusion === "success" ? "neutral" : verdict.conclusion,
  };
}

/** `1 config problem in .github/no-mistakes.yml`, `3 config problems in a.yml and b.yml`, `… in 3 config files`. */
function configProblemsTitle(problems: readonly ConfigProblem[]): string {
  const count = `${problems.length} config problem${problems.length === 1 ? "" : "s"}`;
  const files = [...new Set(problems.map((p) => p.file))];
  return `${count} in ${files.length > 2 ? `${files.length} config files` : files.join(" and ")}`;
}
