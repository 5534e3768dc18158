import type { Execution } from "../db/schema.js";

/**
 * What the app saw of each finding's reproducer in the reviews (by the finding's row id): the outcome of its
 * last reproducer run of phase `review` (a later push's run replaces an earlier one's). A fix's runs do not count.
 */
export function findingReproductions(
  rows: readonly Pick<Execution, "id" | "findingId" | "kind" | "phase" | "outcome">[],
): Map<number, string> {
  const outcomes = new Map<number, string>();
  for (const e of [...rows].sort((a, b) => a.id - b.id))
    if (e.findingId !== null && e.kind === "reproducer" && e.phase === "review") outcomes.set(e.findingId, e.outcome);
  return outcomes;
}
