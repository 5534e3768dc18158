import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/database.js";
import {
  executions,
  findingEvents,
  findings,
  runAgentSessions,
  runCommands,
  runs,
  turns,
  type Finding,
  type FindingEvent,
  type Run,
  type RunAgentSession,
} from "../../db/schema.js";
import type { ExecutionRow, FindingEventRow, FindingRow, RunView, SessionRow, TurnRow } from "../views/run-view.js";

/** A turn's columns as the timeline shows them (never its raw answer). */
const TURN_COLUMNS = {
  id: turns.id,
  role: turns.role,
  trigger: turns.trigger,
  headSha: turns.headSha,
  agent: turns.agent,
  sessionMode: turns.sessionMode,
  sessionId: turns.sessionId,
  fallbackReason: turns.fallbackReason,
  status: turns.status,
  startedAt: turns.startedAt,
  finishedAt: turns.finishedAt,
  tokensIn: turns.tokensIn,
  tokensOut: turns.tokensOut,
  cacheReadTokens: turns.cacheReadTokens,
  cacheWriteTokens: turns.cacheWriteTokens,
  contextTokens: turns.contextTokens,
  costUsd: turns.costUsd,
  error: turns.error,
};

/** How much of an execution's stored output the page shows: its end, where a runner prints its failures. */
export const OUTPUT_SHOWN = 2000;

/** An execution's columns as the page shows them: its output cut to its end in the statement itself. */
const EXECUTION_COLUMNS = {
  id: executions.id,
  turnId: executions.turnId,
  findingId: executions.findingId,
  headSha: executions.headSha,
  kind: executions.kind,
  phase: executions.phase,
  name: executions.name,
  command: executions.command,
  outcome: executions.outcome,
  exitCode: executions.exitCode,
  durationMs: executions.durationMs,
  cached: executions.cached,
  outputTail: sql<string>`right(${executions.outputTail}, ${sql.raw(String(OUTPUT_SHOWN))})`,
  outputLength: sql<number>`length(${executions.outputTail})`.mapWith(Number),
  at: executions.createdAt,
};
type ExecutionColumns = Omit<ExecutionRow, "findingNumber"> & { findingId: number | null };

/**
 * A PR's run view: the run, then its turns, sessions, findings, every finding's events, its commands and
 * its executions in six queries side by side (events and reproducer runs grouped by finding, executions'
 * time added up by turn here); undefined when the app has no run for the PR.
 */
export async function readRunView(db: Database, repositoryId: number, prNumber: number): Promise<RunView | undefined> {
  const [run] = await db
    .select()
    .from(runs)
    .where(and(eq(runs.repositoryId, repositoryId), eq(runs.prNumber, prNumber)));
  if (!run) return undefined;
  const [turnColumns, sessionRows, findingRows, eventRows, commandRows, executionColumns] = await Promise.all([
    db.select(TURN_COLUMNS).from(turns).where(eq(turns.runId, run.id)).orderBy(asc(turns.id)),
    db.select().from(runAgentSessions).where(eq(runAgentSessions.runId, run.id)).orderBy(asc(runAgentSessions.role)),
    db.select().from(findings).where(eq(findings.runId, run.id)).orderBy(asc(findings.number)),
    db
      .select()
      .from(findingEvents)
      .where(eq(findingEvents.runId, run.id))
      .orderBy(asc(findingEvents.findingNumber), asc(findingEvents.id)),
    db.select().from(runCommands).where(eq(runCommands.runId, run.id)).orderBy(asc(runCommands.id)),
    db.select(EXECUTION_COLUMNS).from(executions).where(eq(executions.runId, run.id)).orderBy(asc(executions.id)),
  ]);
  const eventsOf = groupEvents(eventRows);
  const executionRows = executionsOf(executionColumns, findingRows);
  const turnRows = turnColumns.map((t) => withExecutions(t, executionRows));
  return {
    run: runOf(run),
    turns: turnRows,
    sessions: sessionRows.map((s) => sessionOf(s, turnRows)),
    findings: findingRows.map((f) =>
      findingOf(
        f,
        eventsOf.get(f.number) ?? [],
        executionRows.filter((e) => e.findingNumber === f.number),
      ),
    ),
    commands: commandRows.map((c) => ({
      id: c.id,
      author: c.author,
      source: c.source,
      commentId: c.commentId,
      name: String((c.command as { kind?: unknown } | null)?.kind ?? "unknown"),
      status: c.status,
      createdAt: c.createdAt,
      finishedAt: c.finishedAt,
    })),
    executions: executionRows,
    totals: totalsOf(turnRows, executionRows),
  };
}

/** Each execution with the number of the finding whose reproducer it ran. */
function executionsOf(rows: ExecutionColumns[], findingRows: Finding[]): ExecutionRow[] {
  const numberOf = new Map(findingRows.map((f) => [f.id, f.number]));
  return rows.map(({ findingId, ...e }) => ({
    ...e,
    findingNumber: findingId === null ? null : (numberOf.get(findingId) ?? null),
  }));
}

/** A turn with how many executions it ran and their time added up. */
function withExecutions(t: Omit<TurnRow, "executions" | "executionMs">, rows: ExecutionRow[]): TurnRow {
  const own = rows.filter((e) => e.turnId === t.id);
  return { ...t, executions: own.length, executionMs: own.reduce((sum, e) => sum + e.durationMs, 0) };
}

function runOf(run: Run): RunView["run"] {
  return {
    id: run.id,
    repositoryId: run.repositoryId,
    repositoryFullName: run.repositoryFullName,
    prNumber: run.prNumber,
    title: run.title,
    author: run.authorLogin,
    baseRef: run.baseRef,
    headRef: run.headRef,
    headSha: run.headSha,
    lastReviewedSha: run.lastReviewedSha,
    state: run.state,
    draft: run.draft,
    labels: run.labels,
    summaryCommentId: run.summaryCommentId,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
  };
}

/** A role's session, with the number of the run's turns of that role that ran in its session id. */
function sessionOf(s: RunAgentSession, turnRows: TurnRow[]): SessionRow {
  return {
    role: s.role,
    agent: s.agent,
    sessionId: s.sessionId,
    contextTokens: s.contextTokens,
    overheadTokens: s.overheadTokens,
    updatedAt: s.updatedAt,
    turns: turnRows.filter((t) => t.role === s.role && t.sessionId === s.sessionId).length,
  };
}

function groupEvents(rows: FindingEvent[]): Map<number, FindingEventRow[]> {
  const byFinding = new Map<number, FindingEventRow[]>();
  for (const e of rows) {
    const list = byFinding.get(e.findingNumber) ?? [];
    list.push({ kind: e.kind, actor: e.actor, turnId: e.turnId, detail: e.detail, url: e.url, at: e.createdAt });
    byFinding.set(e.findingNumber, list);
  }
  return byFinding;
}

function findingOf(f: Finding, events: FindingEventRow[], executionRows: ExecutionRow[]): FindingRow {
  return {
    number: f.number,
    severity: f.severity,
    action: f.action,
    title: f.title,
    body: f.body,
    path: f.path,
    line: f.line,
    endLine: f.endLine,
    status: f.status,
    dismissReason: f.dismissReason,
    verification: f.verification,
    ruling: f.ruling,
    rulingReason: f.rulingReason,
    rulingBy: f.rulingBy,
    rulingConfirmation: f.rulingConfirmation,
    rulingConfirmedBy: f.rulingConfirmedBy,
    rulingReplyId: f.rulingReplyId,
    commentId: f.commentId,
    reviewId: f.reviewId,
    introducedTurnId: f.introducedTurnId,
    resolvedTurnId: f.resolvedTurnId,
    events,
    executions: executionRows,
  };
}

function totalsOf(turnRows: TurnRow[], executionRows: ExecutionRow[]): RunView["totals"] {
  const sum = (pick: (t: TurnRow) => number) => turnRows.reduce((total, t) => total + pick(t), 0);
  return {
    turns: turnRows.length,
    // cost_usd has six decimals: the sum is rounded back to them
    costUsd: Math.round(sum((t) => t.costUsd) * 1e6) / 1e6,
    tokensIn: sum((t) => t.tokensIn),
    tokensOut: sum((t) => t.tokensOut),
    cacheReadTokens: sum((t) => t.cacheReadTokens),
    cacheWriteTokens: sum((t) => t.cacheWriteTokens),
    executionMs: executionRows.reduce((total, e) => total + e.durationMs, 0),
  };
}
