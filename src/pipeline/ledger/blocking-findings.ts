import type { Finding } from "../../db/schema.js";

export type FailOn = "error" | "warning" | "info" | "never";

const RANK: Record<string, number> = { info: 1, warning: 2, error: 3 };

/** The open findings at or above `review.fail_on`: what fails the check (none for `never`). Notes never count. */
export function blockingFindings(findings: Finding[], failOn: FailOn): Finding[] {
  if (failOn === "never") return [];
  return findings.filter(
    (f) => (f.status === "open" || f.status === "fix-pushed") && (RANK[f.severity] ?? 0) >= RANK[failOn]!,
  );
}
