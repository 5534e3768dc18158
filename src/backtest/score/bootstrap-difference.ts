import type { MetricDifference } from "./metric-difference.js";
import type { ScoredPr } from "./scored-pr.js";
import { seededRandom } from "./seeded-random.js";
import { summarizeConfiguration } from "./summarize-configuration.js";

const METRICS = ["precision", "recall", "f1", "findingsPerPr", "costPerPr", "wallMsPerPr"] as const;

/**
 * B − A on the same PRs (`a[i]` and `b[i]` are one PR), with its spread: PRs are resampled with
 * replacement `resamples` times (a seeded generator: the same seed gives the same interval), both
 * configurations scored on each resample, and the 2.5th and 97.5th percentiles of the differences kept.
 * Each resample is scored as the whole is (prf): a configuration that raised nothing on it has recall and
 * F1 0 there, which count. Only a value prf leaves undefined keeps a resample out of that metric's interval
 * — precision where a configuration raised nothing (no number stands in for it: 0 would call silence
 * wrong, 1 would call it right), anything where the resample holds no real issue — and `resamples` says
 * how many resamples each interval is made of.
 */
export function bootstrapDifference(
  a: readonly ScoredPr[],
  b: readonly ScoredPr[],
  options: { resamples: number; seed: number },
): MetricDifference[] {
  if (a.length !== b.length) throw new Error("a bootstrap pairs PRs: both configurations need the same PRs");
  const whole = [summarizeConfiguration("A", a), summarizeConfiguration("B", b)] as const;
  const random = seededRandom(options.seed);
  const samples = new Map<(typeof METRICS)[number], number[]>(METRICS.map((m) => [m, []]));
  for (let r = 0; r < options.resamples && a.length > 0; r++) {
    const picks = Array.from({ length: a.length }, () => Math.floor(random() * a.length));
    const sa = summarizeConfiguration(
      "A",
      picks.map((i) => a[i]!),
    );
    const sb = summarizeConfiguration(
      "B",
      picks.map((i) => b[i]!),
    );
    for (const m of METRICS) {
      const va = sa[m];
      const vb = sb[m];
      if (va !== null && vb !== null) samples.get(m)!.push(vb - va);
    }
  }
  return METRICS.map((metric) => {
    const va = whole[0][metric];
    const vb = whole[1][metric];
    const sorted = samples.get(metric)!.sort((x, y) => x - y);
    const enough = sorted.length >= Math.max(1, Math.floor(options.resamples / 2));
    return {
      metric,
      a: va,
      b: vb,
      difference: va === null || vb === null ? null : vb - va,
      resamples: sorted.length,
      low: enough ? percentile(sorted, 0.025) : null,
      high: enough ? percentile(sorted, 0.975) : null,
    };
  });
}

/** The p-th percentile of sorted values, interpolated between the two nearest ranks. */
function percentile(sorted: readonly number[], p: number): number {
  const at = (sorted.length - 1) * p;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}
