// The session manager. Every agent turn runs through RunSessions (this file), which keeps each (run,
// role)'s CLI session and decides, turn by turn, whether it is resumed, started fresh (cold, first turn,
// asked to be fresh, another agent's), rolled over (a turn would take it past its budget, or its cache
// has expired and resending it costs more: rollover-reason, expected-growth, expired-and-larger) or fallen
// back from (a resume that failed or that the agent silently replaced: run-agent-turn). The room also
// holds a session's size (session-size, prompt-tokens) and where it is stored (store-session,
// restore-session-state, forget-session); what a PR may still spend (check-budget, read-turn-budget); and
// each turn's accounting: its `turns` row with tokens, cost, mode and fallback reason (record-turn-start,
// record-turn-end, record-failed-turn) and its metrics (record-usage).
import type { Logger } from "pino";
import type { Agent, Role } from "../../agents/types.js";
import type { RepoConfig } from "../../config/repo/repo-config.js";
import type { Database } from "../../db/database.js";
import { deleteRunAgentSession, loadRunAgentSession, rememberRunAgentSession } from "../../db/run-agent-sessions.js";
import type { RunAgentSession } from "../../db/schema.js";
import type { Metrics } from "../../metrics/metrics.js";
import { DEFAULT_CACHE_TTL_MS, DEFAULT_SESSION_BUDGET_TOKENS } from "../../config/env/agent-defaults.js";
import { agentScope } from "./agent-scope.js";
import { chooseSession } from "./choose-session.js";
import { expectedGrowth } from "./expected-growth.js";
import { persistSession } from "./persist-session.js";
import { recordFailedTurn } from "./record-failed-turn.js";
import { recordTurnEnd } from "./record-turn-end.js";
import { recordTurnStart } from "./record-turn-start.js";
import { recordUsage } from "./record-usage.js";
import { runAgentTurn } from "./run-agent-turn.js";
import type { SessionDeps } from "./session-deps.js";
import { sessionSize } from "./session-size.js";
import type { SessionTurn } from "./session-turn.js";
import type { TurnOutcome } from "./turn-outcome.js";
import type { TurnRequest } from "./turn-request.js";
import type { TurnState } from "./turn-state.js";

/** What a repository's config chose for a role (`agents:`), as RunSessions hands it to the agent function. */
export type RepoAgentChoice = NonNullable<NonNullable<RepoConfig["agents"]>[Role]>;

export { agentScope } from "./agent-scope.js";
export type { TurnOutcome } from "./turn-outcome.js";
export type { TurnRequest } from "./turn-request.js";

/** The stored session of a (run, role) as the next turn will find it. */
export interface SessionPeek {
  /** Whether the next turn (not asked to be fresh) will resume it: false when there is none, it belongs to another agent, or a turn would take it past its budget. */
  resumable: boolean;
  /** What the caller recorded the session was told (`remember`); kept for a rollover's digest too. */
  memory?: unknown;
  /** Its size: input tokens of its largest request so far. */
  contextTokens: number;
}

export interface RunSessionsOptions {
  db: Database;
  /**
   * The agent every role's turns run, or each role's own (REVIEWER_AGENT, FIXER_AGENT…), given what the
   * repository's config chose for the role (`agents:`; the function decides whether that applies).
   */
  agent: Agent | ((role: Role, choice?: RepoAgentChoice) => Agent);
  log: Logger;
  /** Exported session state larger than this (compressed) is not stored. Default 8 MiB. */
  maxStateBytes?: number;
  /** Transient agent failures are retried this many times, with exponential backoff. */
  transientRetries?: number;
  retryBaseDelayMs?: number;
  /** Turn times, fallbacks, tokens and spend; absent = nothing recorded. */
  metrics?: Metrics;
  /**
   * A stored session whose largest request passed this many input tokens is not resumed: the next turn
   * starts a new one (mode `rollover`) with its fresh prompt. Default DEFAULT_SESSION_BUDGET_TOKENS.
   */
  sessionBudgetTokens?: number;
  /**
   * How long the provider keeps a prompt cache entry after its last use (AGENT_CACHE_TTL, default 5 min).
   * Past it, a stored session larger than a new one would be is not resumed: with nothing cached, resending
   * its history costs more than the prompt that stands alone.
   */
  cacheTtlMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

/**
 * Runs agent turns for one role of one run, keeping that role's session:
 * load the (run, role) row → attach its id when the adapter can resume → persist the id the agent
 * reports. A failed resume (not a cancellation) forgets the row and runs the same turn fresh.
 * A broken session store makes the turn run cold; it never loses the turn.
 */
export class RunSessions {
  readonly #deps: Omit<SessionDeps, "agent">;
  readonly #agentOf: (role: Role, choice?: RepoAgentChoice) => Agent;
  readonly #log: Logger;

  constructor(options: RunSessionsOptions) {
    this.#log = options.log;
    const { agent } = options;
    this.#agentOf = typeof agent === "function" ? agent : () => agent;
    this.#deps = {
      db: options.db,
      metrics: options.metrics,
      maxStateBytes: options.maxStateBytes ?? 8 * 1024 * 1024,
      transientRetries: options.transientRetries ?? 2,
      retryBaseDelayMs: options.retryBaseDelayMs ?? 2000,
      sessionBudget: options.sessionBudgetTokens ?? DEFAULT_SESSION_BUDGET_TOKENS,
      cacheTtlMs: options.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS,
      now: options.now ?? Date.now,
    };
  }

  /** What the next turn of (run, role) will find; a store that cannot be read finds nothing. */
  async peek(runId: number, role: Role, config?: RepoConfig): Promise<SessionPeek> {
    const { db, sessionBudget } = this.#deps;
    const agent = this.#agentOf(role, config?.agents?.[role]);
    if (!agent.supportsResume) return { resumable: false, contextTokens: 0 };
    let stored: RunAgentSession | undefined;
    try {
      stored = await loadRunAgentSession(db, runId, role);
    } catch {
      return { resumable: false, contextTokens: 0 };
    }
    if (!stored) return { resumable: false, contextTokens: 0 };
    const growth = await expectedGrowth(db, runId, stored, 0, this.#log);
    const resumable = stored.agent === agent.name && stored.contextTokens + growth <= sessionBudget;
    return { resumable, memory: stored.memory ?? undefined, contextTokens: stored.contextTokens };
  }

  /**
   * Records what the (run, role) session has now been told, for the next turn's `peek`: called after a
   * turn, once its answer is read. Nothing happens when no session is stored; a failure is only logged
   * (the next turn then tells the session everything again).
   */
  async remember(runId: number, role: Role, memory: unknown): Promise<void> {
    try {
      await rememberRunAgentSession(this.#deps.db, runId, role, memory);
    } catch (error) {
      this.#log.warn({ err: error, runId, role }, "what the session was told could not be recorded");
    }
  }

  /**
   * One turn: load (chooseSession) → attach (runAgentTurn) → persist (persistSession), then its `turns`
   * row and metrics. A turn that throws is recorded with the mode it had reached (recordFailedTurn).
   */
  async run(runId: number, role: Role, turn: TurnRequest): Promise<TurnOutcome> {
    const deps: SessionDeps = {
      ...this.#deps,
      agent: this.#agentOf(role, turn.agentChoice ?? turn.limits?.agents?.[role]),
    };
    const log = this.#log.child({ runId, role });
    const fresh = { ...turn, prompt: turn.freshPrompt ?? turn.prompt };
    const t: SessionTurn = { runId, role, turn, fresh, scope: agentScope(runId, role), log };
    const started = performance.now();
    const turnId = await recordTurnStart(deps, t);
    const state: TurnState = { mode: "started" };
    try {
      // 1. Load.
      const stored = await chooseSession(deps, t, state);
      // 2. Attach (and restore exported state when the adapter can).
      const result = await runAgentTurn(deps, t, stored, state);
      const size = sessionSize(result, state.mode, stored, fresh.prompt);
      // 3. Persist (the latest id always wins).
      await persistSession(deps, t, result, size, state);

      await recordTurnEnd(deps.db, turnId, log, {
        status: "succeeded",
        sessionMode: state.mode,
        sessionId: result.sessionId ?? null,
        fallbackReason: state.fallbackReason ?? null,
        tokensIn: result.usage.tokensIn,
        tokensOut: result.usage.tokensOut,
        cacheReadTokens: result.usage.cacheReadTokens ?? 0,
        cacheWriteTokens: result.usage.cacheWriteTokens ?? 0,
        contextTokens: size.turnContext,
        costUsd: result.usage.costUsd ?? 0,
      });
      recordUsage(deps.metrics, role, state.mode, result, (performance.now() - started) / 1000);
      log.info({ turnId, mode: state.mode, sessionId: result.sessionId }, "agent turn finished");
      return { turnId, result, mode: state.mode, fallbackReason: state.fallbackReason };
    } catch (error) {
      throw await recordFailedTurn(deps, t, turnId, state, error);
    }
  }

  /** Forgets the stored session(s) of a run: the next turn of that role starts fresh. */
  async reset(runId: number, role?: Role): Promise<void> {
    await deleteRunAgentSession(this.#deps.db, runId, role);
  }
}
