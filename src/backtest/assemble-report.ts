import type { BacktestRun } from "./backtest-run.js";
import type { BacktestReport } from "./backtest-report.js";
import { bootstrapDifference } from "./score/bootstrap-difference.js";
import type { ReviewedPrs } from "./review-each-pr.js";
import { summarizeConfiguration } from "./score/summarize-configuration.js";

/** The report: the PRs, each configuration's scores over what it finished, and with two configurations B − A on the PRs both finished. */
export function assembleReport(run: BacktestRun, reviewed: ReviewedPrs): BacktestReport {
  const { repo, options, prs, missing, otherRepository, flagged, withoutGolden, warnings } = run;
  const { configurations, matcher, judge, state } = run;
  const { results, failures, stopped } = reviewed;
  const report: BacktestReport = {
    repo,
    ...(options.golden ? { golden: options.golden } : {}),
    matching: matcher ? (matcher.kind === "judge" ? "judge" : "location") : "none",
    prs: prs.map((p) => ({
      id: p.id,
      title: p.title,
      baseSha: p.baseSha,
      headSha: p.headSha,
      pushes: p.pushes.length,
      ...(p.golden ? { golden: p.golden.issues.length } : {}),
    })),
    missing,
    otherRepository,
    flagged,
    withoutGolden,
    warnings,
    configurations: configurations.map((c) => {
      const scored = [...results.get(c.label)!.values()];
      return {
        label: c.label,
        describe: c.describe,
        summary: summarizeConfiguration(c.label, scored),
        prs: scored,
        failures: failures.get(c.label)!,
      };
    }),
    ...(stopped ? { stopped } : {}),
    spentUsd: state.spentUsd(),
    ...(judge ? { judge: { asked: judge.asked, cached: judge.answered - judge.asked, costUsd: judge.spentUsd } } : {}),
  };
  if (configurations.length === 2) {
    const a = results.get(configurations[0]!.label)!;
    const b = results.get(configurations[1]!.label)!;
    const both = prs.map((p) => p.id).filter((id) => a.has(id) && b.has(id));
    report.comparison = {
      a: configurations[0]!.label,
      b: configurations[1]!.label,
      prs: both.length,
      resamples: options.resamples,
      seed: options.seed,
      metrics: bootstrapDifference(
        both.map((id) => a.get(id)!),
        both.map((id) => b.get(id)!),
        { resamples: options.resamples, seed: options.seed },
      ),
    };
  }
  return report;
}
