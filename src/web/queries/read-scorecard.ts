import { and, eq, gte, inArray, ne, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../db/database.js";
import { findings, runs, turns } from "../../db/schema.js";
import { SCORECARD_WEEKS, scorecardSince } from "../../domain/scorecard-period.js";
import {
  emptyCounts,
  type AgentModelRow,
  type OutcomeCounts,
  type Scorecard,
  type ScorecardGroup,
  type ScorecardWeek,
} from "../views/scorecard-view.js";

/** Which repositories a scorecard counts: some (a repository's page) or all of them (the operator's). */
export type ScorecardScope = { repositoryIds: number[] } | "all";

const DAY_MS = 86_400_000;
/** The triggers of a review that a push asked for (the PR's update GitHub reported is that push). */
const PUSH_TRIGGERS = ["opened", "synchronize"];

/**
 * The scorecard of the findings raised and the turns started since `scorecardSince(now)` in `scope`:
 * three statements whatever the repository's size, each grouped down to a few rows in the database (the
 * outcomes by every dimension and week at once: one pass over the findings serves the tables and the trends).
 */
export async function readScorecard(db: Database, scope: ScorecardScope, now = new Date()): Promise<Scorecard> {
  const since = scorecardSince(now);
  if (scope !== "all" && scope.repositoryIds.length === 0) return assemble(since, [], [], []);
  const inScope = scope === "all" ? undefined : inArray(runs.repositoryId, scope.repositoryIds);
  const posted = and(ne(findings.status, "note"), gte(findings.createdAt, since), inScope);
  const [outcomes, turnRows, seconds] = await Promise.all([
    outcomeRows(db, posted),
    turnStats(db, and(gte(turns.startedAt, since), inScope)),
    secondsToOutcome(db, and(posted, sql`${findings.outcome} is not null`)),
  ]);
  return assemble(since, outcomes, turnRows, seconds);
}

type OutcomeRow = Awaited<ReturnType<typeof outcomeRows>>[number];
type TurnRow = Awaited<ReturnType<typeof turnStats>>[number];

const WEEK = sql<string>`to_char(date_trunc('week', ${findings.createdAt} at time zone 'UTC'), 'YYYY-MM-DD')`;

function outcomeRows(db: Database, where: SQL | undefined) {
  return db
    .select({
      week: WEEK,
      repository: sql<string>`max(${runs.repositoryFullName})`,
      agent: sql<string>`coalesce(${turns.agent}, 'unknown')`,
      model: turns.model,
      severity: findings.severity,
      reproduction: sql<string>`coalesce(${findings.reproduction}, 'none')`,
      outcome: findings.outcome,
      count: sql<number>`count(*)::int`,
    })
    .from(findings)
    .innerJoin(runs, eq(runs.id, findings.runId))
    .leftJoin(turns, eq(turns.id, findings.introducedTurnId))
    .where(where)
    .groupBy(
      runs.repositoryId,
      turns.agent,
      turns.model,
      findings.severity,
      findings.reproduction,
      findings.outcome,
      WEEK,
    );
}

/** Turns, resumed turns, spend and the median push-to-review per agent and model, and over all of them (`all`). */
function turnStats(db: Database, where: SQL | undefined) {
  const pushToReview = sql`extract(epoch from ${turns.finishedAt} - ${turns.prUpdatedAt})`;
  const isPushReview = sql`${turns.role} = 'reviewer' and ${turns.status} = 'succeeded' and ${inArray(turns.trigger, PUSH_TRIGGERS)}
    and ${turns.finishedAt} >= ${turns.prUpdatedAt}`;
  return db
    .select({
      all: sql<boolean>`grouping(${turns.agent}) = 1`,
      agent: turns.agent,
      model: turns.model,
      turns: sql<number>`count(*)::int`,
      resumedTurns: sql<number>`(count(*) filter (where ${turns.sessionMode} = 'resumed'))::int`,
      spendUsd: sql<number>`coalesce(sum(${turns.costUsd}), 0)::float8`,
      pushToReviewSeconds: sql<
        number | null
      >`(percentile_cont(0.5) within group (order by ${pushToReview}) filter (where ${isPushReview}))::float8`,
    })
    .from(turns)
    .innerJoin(runs, eq(runs.id, turns.runId))
    .where(where)
    .groupBy(sql`grouping sets ((${turns.agent}, ${turns.model}), ())`);
}

function secondsToOutcome(db: Database, where: SQL | undefined) {
  return db
    .select({
      outcome: sql<string>`${findings.outcome}`,
      seconds: sql<number>`(percentile_cont(0.5) within group (order by extract(epoch from ${findings.outcomeAt} - ${findings.createdAt})))::float8`,
    })
    .from(findings)
    .innerJoin(runs, eq(runs.id, findings.runId))
    .where(where)
    .groupBy(findings.outcome)
    .orderBy(findings.outcome);
}

const COUNT_OF: Record<string, keyof OutcomeCounts> = {
  fixed: "fixed",
  dismissed: "dismissed",
  withdrawn: "withdrawn",
  "open-at-merge": "openAtMerge",
  abandoned: "abandoned",
};

function add(counts: OutcomeCounts, row: Pick<OutcomeRow, "outcome" | "count">): void {
  counts.posted += row.count;
  counts[row.outcome === null ? "open" : (COUNT_OF[row.outcome] ?? "open")] += row.count;
}

/** Rows summed into groups by `key`, sorted by label. */
function groupBy(rows: OutcomeRow[], key: (r: OutcomeRow) => string): ScorecardGroup[] {
  const groups = new Map<string, ScorecardGroup>();
  for (const row of rows) {
    const label = key(row);
    const group = groups.get(label) ?? { label, ...emptyCounts() };
    add(group, row);
    groups.set(label, group);
  }
  return [...groups.values()].sort((a, b) => a.label.localeCompare(b.label));
}

function assemble(
  since: Date,
  outcomes: OutcomeRow[],
  turnRows: TurnRow[],
  seconds: { outcome: string; seconds: number }[],
): Scorecard {
  const total = emptyCounts();
  for (const row of outcomes) add(total, row);
  const overall = turnRows.find((t) => t.all);
  return {
    since,
    total,
    byAgentModel: byAgentModel(outcomes, turnRows),
    bySeverity: groupBy(outcomes, (r) => r.severity),
    byReproduction: groupBy(outcomes, (r) => r.reproduction),
    byRepository: groupBy(outcomes, (r) => r.repository),
    turns: overall?.turns ?? 0,
    resumedTurns: overall?.resumedTurns ?? 0,
    spendUsd: overall?.spendUsd ?? 0,
    pushToReviewSeconds: overall?.pushToReviewSeconds ?? null,
    secondsToOutcome: seconds.map((s) => ({ outcome: s.outcome, seconds: Number(s.seconds) })),
    weeks: everyWeek(since, outcomes),
  };
}

function byAgentModel(outcomes: OutcomeRow[], turnRows: TurnRow[]): AgentModelRow[] {
  const rows = new Map<string, AgentModelRow>();
  const row = (agent: string, model: string | null) => {
    const key = `${agent}\u0000${model ?? ""}`;
    let found = rows.get(key);
    if (!found) {
      found = { agent, model, turns: 0, resumedTurns: 0, spendUsd: 0, pushToReviewSeconds: null, ...emptyCounts() };
      rows.set(key, found);
    }
    return found;
  };
  for (const o of outcomes) add(row(o.agent, o.model), o);
  for (const t of turnRows.filter((t) => !t.all))
    Object.assign(row(t.agent!, t.model), {
      turns: t.turns,
      resumedTurns: t.resumedTurns,
      spendUsd: t.spendUsd,
      pushToReviewSeconds: t.pushToReviewSeconds,
    });
  return [...rows.values()].sort(
    (a, b) => a.agent.localeCompare(b.agent) || (a.model ?? "").localeCompare(b.model ?? ""),
  );
}

function everyWeek(since: Date, outcomes: OutcomeRow[]): ScorecardWeek[] {
  const byWeek = new Map<string, Omit<ScorecardWeek, "weekStart">>();
  for (const o of outcomes) {
    const w = byWeek.get(o.week) ?? { posted: 0, fixed: 0, noise: 0 };
    w.posted += o.count;
    if (o.outcome === "fixed") w.fixed += o.count;
    if (o.outcome === "dismissed" || o.outcome === "withdrawn") w.noise += o.count;
    byWeek.set(o.week, w);
  }
  return Array.from({ length: SCORECARD_WEEKS }, (_, i) => {
    const weekStart = new Date(since.getTime() + i * 7 * DAY_MS);
    return { weekStart, ...(byWeek.get(weekStart.toISOString().slice(0, 10)) ?? { posted: 0, fixed: 0, noise: 0 }) };
  });
}
