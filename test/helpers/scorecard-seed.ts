import type { Database } from "../../src/db/database.js";
import { seedFindings, seedRuns, seedTurns } from "./run-view-seed.js";

/** "Now" for a seeded scorecard: Wednesday 2026-11-25; its 12 weeks start on Monday 2026-09-07. */
export const SCORECARD_NOW = new Date("2026-11-25T12:00:00Z");
const T = Date.parse("2026-11-23T10:00:00Z");
const at = (seconds: number) => new Date(T + seconds * 1000);

/**
 * A ledger with known outcomes. octo/widgets (repository 1): PR 10, merged, reviewed by Claude Code (opus) and
 * then Codex (gpt-5), fixed once by Claude Code; PR 11, open, one Claude Code review. octo/else (repository 2):
 * PR 1, one finding fixed. Finding by finding (severity, reproduction, outcome, seconds to it):
 * PR 10 — NM-1 claude error reproduced fixed 3600 · NM-2 claude warning – dismissed 7200 · NM-3 claude warning
 * not-reproduced withdrawn 600 · NM-4 codex info – open-at-merge 86400 · NM-5 codex error reproduced fixed
 * 1800 (raised a week earlier) · NM-6 a claude note (never counted) · NM-7 claude, raised before the period.
 * PR 11 — NM-1 claude warning – still open. octo/else PR 1 — NM-1 claude error – fixed 60.
 * Turns: claude reviewer 120 s after the push ($0.40), codex reviewer 300 s ($0.10), claude fixer resumed
 * ($0.50), claude reviewer on PR 11 60 s ($0.20); octo/else one claude reviewer ($1.00).
 */
export async function seedScorecardLedger(db: Database): Promise<{ merged: number; open: number; other: number }> {
  const [merged, open, other] = await seedRuns(db, [
    { repositoryId: 1, fullName: "octo/widgets", prNumber: 10, state: "closed", updatedAt: at(90_000) },
    { repositoryId: 1, fullName: "octo/widgets", prNumber: 11, updatedAt: at(3_000) },
    { repositoryId: 2, fullName: "octo/else", prNumber: 1, updatedAt: at(100) },
  ]);
  const claude = { agent: "claude-code", model: "claude-opus-4-8" };
  const codex = { agent: "codex", model: "gpt-5" };
  const review = (pushed: number, seconds: number, costUsd: number, more = {}) => ({
    role: "reviewer",
    trigger: "synchronize",
    sessionMode: "started",
    prUpdatedAt: at(pushed),
    startedAt: at(pushed + 5),
    finishedAt: at(pushed + seconds),
    costUsd,
    ...more,
  });
  const [c1, x1] = await seedTurns(db, merged!, [
    review(0, 120, 0.4, { ...claude, trigger: "opened" }),
    review(1_000, 300, 0.1, codex),
    { ...claude, role: "fixer", trigger: "command", sessionMode: "resumed", startedAt: at(2_000), costUsd: 0.5 },
  ]);
  const [c2] = await seedTurns(db, open!, [review(3_000, 60, 0.2, claude)]);
  const [c3] = await seedTurns(db, other!, [review(0, 30, 1, claude)]);
  const decided = (outcome: string, seconds: number, created = 0) => ({
    status: outcome === "open-at-merge" ? "open" : outcome,
    outcome,
    createdAt: at(created),
    outcomeAt: at(created + seconds),
  });
  await seedFindings(db, merged!, [
    { number: 1, introducedTurnId: c1, severity: "error", reproduction: "reproduced", ...decided("fixed", 3600) },
    { number: 2, introducedTurnId: c1, severity: "warning", ...decided("dismissed", 7200) },
    { number: 3, introducedTurnId: c1, reproduction: "not-reproduced", ...decided("withdrawn", 600) },
    { number: 4, introducedTurnId: x1, severity: "info", ...decided("open-at-merge", 86_400) },
    {
      number: 5,
      introducedTurnId: x1,
      severity: "error",
      reproduction: "reproduced",
      ...decided("fixed", 1800, -7 * 86_400),
    },
    { number: 6, introducedTurnId: c1, status: "note", createdAt: at(0) },
    { number: 7, introducedTurnId: c1, ...decided("fixed", 60, -200 * 86_400) },
  ]);
  await seedFindings(db, open!, [{ number: 1, introducedTurnId: c2, status: "open", createdAt: at(3_000) }]);
  await seedFindings(db, other!, [{ number: 1, introducedTurnId: c3, severity: "error", ...decided("fixed", 60) }]);
  return { merged: merged!, open: open!, other: other! };
}
