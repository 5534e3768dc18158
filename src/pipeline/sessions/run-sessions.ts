import { gunzipSync, gzipSync } from "node:zlib";
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "pino";
import { AgentError, toAgentError } from "../../agents/agent-error.js";
import type { Agent, AgentResult, Role } from "../../agents/types.js";
import type { Database } from "../../db/database.js";
import {
  deleteRunAgentSession,
  loadRunAgentSession,
  rememberRunAgentSession,
  saveRunAgentSession,
} from "../../db/run-agent-sessions.js";
import type { RunAgentSession } from "../../db/schema.js";
import { finishTurn, startTurn, type SessionMode } from "../../db/turns.js";
import type { Metrics } from "../../metrics/metrics.js";
import type { ModelBudget } from "../../agents/sandbox/model-meter.js";
import type { RepoConfig } from "../../config/repo-config.js";
import { listTurns } from "../../db/turns.js";
import { DEFAULT_CACHE_TTL_MS, DEFAULT_SESSION_BUDGET_TOKENS } from "../../agents/session-budget.js";
import { turnBudget } from "./check-budget.js";

export interface TurnRequest {
  /** What started the turn: opened, push, command, auto-fix, rerequested, ... */
  trigger: string;
  headSha: string;
  prompt: string;
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Start a new session even when one is stored (review --full, `review.session: cold`). */
  fresh?: boolean;
  /** The PR's limits: the model proxy stops the turn once the run's spend reaches them; absent = unbounded. */
  limits?: RepoConfig;
  /**
   * The prompt for a new session (first turn, `fresh`, cold, a fallback, a rollover): it must stand alone.
   * `prompt` is then what a resumed session is told. Absent: `prompt` serves both.
   */
  freshPrompt?: string;
}

/** The stored session of a (run, role) as the next turn will find it. */
export interface SessionPeek {
  /** Whether the next turn (not asked to be fresh) will resume it: false when there is none, it belongs to another agent, or a turn would take it past its budget. */
  resumable: boolean;
  /** What the caller recorded the session was told (`remember`); kept for a rollover's digest too. */
  memory?: unknown;
  /** Its size: input tokens of its largest request so far. */
  contextTokens: number;
}

/**
 * The agent home of a (run, role): each gets its own CLI config dir, restored from the database
 * before a turn and exported after it, and the sandbox shows a turn only its own.
 */
export function agentScope(runId: number, role: Role): string {
  return `run-${runId}-${role}`;
}

export interface TurnOutcome {
  /** The `turns` row, when it could be recorded. */
  turnId?: number;
  result: AgentResult;
  mode: SessionMode;
  fallbackReason?: string;
}

export interface RunSessionsOptions {
  db: Database;
  agent: Agent;
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
  readonly #db: Database;
  readonly #agent: Agent;
  readonly #log: Logger;
  readonly #maxStateBytes: number;
  readonly #transientRetries: number;
  readonly #retryBaseDelayMs: number;
  readonly #metrics: Metrics | undefined;
  readonly #sessionBudget: number;
  readonly #cacheTtlMs: number;
  readonly #now: () => number;

  constructor(options: RunSessionsOptions) {
    this.#db = options.db;
    this.#agent = options.agent;
    this.#log = options.log;
    this.#maxStateBytes = options.maxStateBytes ?? 8 * 1024 * 1024;
    this.#transientRetries = options.transientRetries ?? 2;
    this.#retryBaseDelayMs = options.retryBaseDelayMs ?? 2000;
    this.#metrics = options.metrics;
    this.#sessionBudget = options.sessionBudgetTokens ?? DEFAULT_SESSION_BUDGET_TOKENS;
    this.#cacheTtlMs = options.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS;
    this.#now = options.now ?? Date.now;
  }

  /** What the next turn of (run, role) will find; a store that cannot be read finds nothing. */
  async peek(runId: number, role: Role): Promise<SessionPeek> {
    if (!this.#agent.supportsResume) return { resumable: false, contextTokens: 0 };
    let stored: RunAgentSession | undefined;
    try {
      stored = await loadRunAgentSession(this.#db, runId, role);
    } catch {
      return { resumable: false, contextTokens: 0 };
    }
    if (!stored) return { resumable: false, contextTokens: 0 };
    const growth = await this.#expectedGrowth(runId, stored, 0, this.#log);
    const resumable = stored.agent === this.#agent.name && stored.contextTokens + growth <= this.#sessionBudget;
    return { resumable, memory: stored.memory ?? undefined, contextTokens: stored.contextTokens };
  }

  /**
   * Records what the (run, role) session has now been told, for the next turn's `peek`: called after a
   * turn, once its answer is read. Nothing happens when no session is stored; a failure is only logged
   * (the next turn then tells the session everything again).
   */
  async remember(runId: number, role: Role, memory: unknown): Promise<void> {
    try {
      await rememberRunAgentSession(this.#db, runId, role, memory);
    } catch (error) {
      this.#log.warn({ err: error, runId, role }, "what the session was told could not be recorded");
    }
  }

  async run(runId: number, role: Role, turn: TurnRequest): Promise<TurnOutcome> {
    const log = this.#log.child({ runId, role });
    const scope = agentScope(runId, role);
    const started = performance.now();
    const turnId = await this.#startTurn(runId, role, turn, log);
    let mode: SessionMode = "started";
    let fallbackReason: string | undefined;
    try {
      // 1. Load.
      let stored: RunAgentSession | undefined;
      if (!this.#agent.supportsResume) {
        mode = "cold";
      } else if (turn.fresh) {
        mode = "started";
      } else {
        try {
          stored = await loadRunAgentSession(this.#db, runId, role);
        } catch (error) {
          mode = "cold";
          fallbackReason = `session store unavailable: ${(error as Error).message}`;
          this.#metrics?.agentFallbacks.inc({ reason: "store_unavailable" });
          log.warn({ err: error }, "session load failed; running cold");
        }
        if (stored && stored.agent !== this.#agent.name) {
          log.info({ storedAgent: stored.agent }, "stored session belongs to another agent; starting fresh");
          stored = undefined;
        }
        const growth = stored ? await this.#expectedGrowth(runId, stored, promptTokens(turn.prompt), log) : 0;
        if (stored && stored.contextTokens + growth > this.#sessionBudget) {
          // Resuming would resend a history this large on every request, and soon pass the window.
          mode = "rollover";
          fallbackReason = `the session holds ${stored.contextTokens} tokens and a turn adds about ${growth}, past its budget of ${this.#sessionBudget}: a new session starts from a digest of the pull request`;
          this.#metrics?.agentFallbacks.inc({ reason: "rollover" });
          log.info({ sessionId: stored.sessionId, contextTokens: stored.contextTokens }, "session rolled over");
          await this.#forget(runId, role, log);
          stored = undefined;
        }
        const expired = stored && this.#expiredAndLarger(stored, turn);
        if (stored && expired) {
          mode = "rollover";
          fallbackReason = expired;
          this.#metrics?.agentFallbacks.inc({ reason: "rollover" });
          log.info({ sessionId: stored.sessionId, contextTokens: stored.contextTokens }, "session rolled over");
          await this.#forget(runId, role, log);
          stored = undefined;
        }
      }
      const fresh = { ...turn, prompt: turn.freshPrompt ?? turn.prompt };

      // 2. Attach (and restore exported state when the adapter can).
      let result: AgentResult;
      if (stored) {
        try {
          await this.#restoreState(stored, turn.cwd, scope);
          result = await this.#call(runId, role, turn, scope, stored.sessionId, log);
          if (result.resumed && result.sessionId !== undefined) {
            mode = "resumed";
          } else {
            mode = "fallback";
            fallbackReason = `the agent started a new session instead of resuming ${stored.sessionId}`;
            this.#metrics?.agentFallbacks.inc({ reason: "session_replaced" });
            log.warn({ sessionId: stored.sessionId, newSessionId: result.sessionId }, "session silently replaced");
            // That new session was told only what changed: the same turn again, with the prompt that stands alone.
            if (fresh.prompt !== turn.prompt) result = await this.#call(runId, role, fresh, scope, undefined, log);
          }
        } catch (error) {
          const failure = toAgentError(error);
          if (failure.kind === "cancelled" || turn.signal?.aborted) throw failure;
          // 4. Fallback: forget the dead session, run the same turn fresh.
          mode = "fallback";
          fallbackReason = `resume of ${stored.sessionId} failed (${failure.kind}): ${failure.message}`;
          this.#metrics?.agentFallbacks.inc({ reason: "resume_failed" });
          log.warn(
            { sessionId: stored.sessionId, kind: failure.kind, reason: failure.message },
            "resume failed; running the turn in a fresh session",
          );
          await this.#forget(runId, role, log);
          result = await this.#call(runId, role, fresh, scope, undefined, log);
        }
      } else {
        result = await this.#call(runId, role, fresh, scope, undefined, log);
      }
      // The session's size: the proxy's measure of its largest request, else every input token of the
      // turn (more than its size when the turn made several requests: a rollover comes early, never late).
      const turnContext = result.usage.contextTokens ?? result.usage.tokensIn;
      // what a new session carries besides its prompt, learnt from this one's first turn
      const overheadTokens = mode === "resumed" ? undefined : Math.max(0, turnContext - promptTokens(fresh.prompt));
      const contextTokens = mode === "resumed" ? Math.max(stored?.contextTokens ?? 0, turnContext) : turnContext;

      // 3. Persist (the latest id always wins).
      if (this.#agent.supportsResume && result.sessionId) {
        const saved = await this.#persist(runId, role, result.sessionId, turn.cwd, log, scope, {
          contextTokens,
          overheadTokens,
          newSession: mode !== "resumed",
        });
        if (!saved && mode !== "fallback") {
          fallbackReason ??= "session could not be saved; the next turn starts fresh";
        }
        if (!saved) this.#metrics?.agentFallbacks.inc({ reason: "save_failed" });
      }

      await this.#finishTurn(turnId, log, {
        status: "succeeded",
        sessionMode: mode,
        sessionId: result.sessionId ?? null,
        fallbackReason: fallbackReason ?? null,
        tokensIn: result.usage.tokensIn,
        tokensOut: result.usage.tokensOut,
        cacheReadTokens: result.usage.cacheReadTokens ?? 0,
        cacheWriteTokens: result.usage.cacheWriteTokens ?? 0,
        contextTokens: turnContext,
        costUsd: result.usage.costUsd ?? 0,
      });
      this.#record(role, mode, result, (performance.now() - started) / 1000);
      log.info({ turnId, mode, sessionId: result.sessionId }, "agent turn finished");
      return { turnId, result, mode, fallbackReason };
    } catch (error) {
      const failure = toAgentError(error);
      const cancelled = failure.kind === "cancelled" || turn.signal?.aborted === true;
      // A turn stopped because its process is stopping (the abort reason says `interrupted`) will run
      // again elsewhere: it is `interrupted`, as when its process dies, not `cancelled`.
      const interrupted =
        cancelled && (turn.signal?.reason as { interrupted?: unknown } | undefined)?.interrupted === true;
      await this.#finishTurn(turnId, log, {
        status: interrupted ? "interrupted" : cancelled ? "cancelled" : "failed",
        sessionMode: mode,
        fallbackReason: fallbackReason ?? null,
        error: `${failure.kind}: ${failure.message}`,
        // what the failed call spent still counts in the PR's spend
        tokensIn: failure.usage?.tokensIn ?? 0,
        tokensOut: failure.usage?.tokensOut ?? 0,
        costUsd: failure.usage?.costUsd ?? 0,
      });
      log.warn({ turnId, kind: failure.kind, err: failure }, cancelled ? "agent turn cancelled" : "agent turn failed");
      throw cancelled && failure.kind !== "cancelled"
        ? new AgentError("cancelled", failure.message, { cause: failure })
        : failure;
    }
  }

  /** A finished turn's time, tokens and spend. */
  #record(role: Role, mode: SessionMode, result: AgentResult, seconds: number): void {
    const metrics = this.#metrics;
    if (!metrics) return;
    metrics.agentTurnSeconds.observe({ role, mode }, seconds);
    // a counter throws on a negative or non-finite amount: what an adapter reports must not fail the turn
    const counted = (n: number | undefined) => (typeof n === "number" && Number.isFinite(n) && n > 0 ? n : 0);
    metrics.agentTokens.inc({ role, kind: "input" }, counted(result.usage.tokensIn));
    metrics.agentTokens.inc({ role, kind: "output" }, counted(result.usage.tokensOut));
    metrics.agentCostUsd.inc({ role }, counted(result.usage.costUsd));
  }

  /**
   * How many tokens resuming `stored` will add to its largest request: the most any of its last few
   * turns added (a turn carries its prompt, the files it reads and its answer into the history), and
   * at least this turn's prompt. So a session rolls over before a turn would take it past its budget.
   */
  async #expectedGrowth(runId: number, stored: RunAgentSession, floor: number, log: Logger): Promise<number> {
    let sizes: number[];
    try {
      sizes = (await listTurns(this.#db, runId))
        .filter((t) => t.role === stored.role && t.sessionId === stored.sessionId && t.status === "succeeded")
        .map((t) => t.contextTokens)
        .filter((n) => n > 0);
    } catch (error) {
      log.warn({ err: error }, "turns could not be read; the session's growth is taken as its prompt's size");
      return floor;
    }
    const growths = sizes.slice(1).map((n, i) => n - sizes[i]!);
    return Math.max(floor, ...growths.slice(-GROWTH_WINDOW));
  }

  /**
   * Why a stored session should not be resumed because its cache has expired: undefined while it may
   * still be cached, when the turn has no prompt of its own for a new session, or when the session is
   * and its new prompt are no larger than a new one would be (its overhead and the fresh prompt).
   */
  #expiredAndLarger(stored: RunAgentSession, turn: TurnRequest): string | undefined {
    if (turn.freshPrompt === undefined) return undefined;
    const idleMs = this.#now() - stored.updatedAt.getTime();
    if (idleMs <= this.#cacheTtlMs) return undefined;
    // what each would send first, with nothing cached: the history and its new prompt, or a new session
    const resendTokens = stored.contextTokens + promptTokens(turn.prompt);
    const freshTokens = stored.overheadTokens + promptTokens(turn.freshPrompt);
    if (resendTokens <= freshTokens) return undefined;
    return `the provider's cache has expired (the session was last used ${Math.round(idleMs / 1000)} s ago) and resending its ${resendTokens} tokens costs more than a new session's ${freshTokens}: a new session starts from a digest of the pull request`;
  }

  /** Forgets the stored session(s) of a run: the next turn of that role starts fresh. */
  async reset(runId: number, role?: Role): Promise<void> {
    await deleteRunAgentSession(this.#db, runId, role);
  }

  /** One agent call; transient failures are retried with backoff, all else is thrown as classified. */
  async #call(
    runId: number,
    role: Role,
    turn: TurnRequest,
    scope: string,
    sessionId: string | undefined,
    log: Logger,
  ): Promise<AgentResult> {
    for (let attempt = 0; ; attempt++) {
      const budget = await this.#budget(runId, turn.limits, log);
      try {
        return await this.#agent.run({
          prompt: turn.prompt,
          cwd: turn.cwd,
          role,
          sessionId,
          timeoutMs: turn.timeoutMs,
          signal: turn.signal,
          scope,
          budget,
        });
      } catch (error) {
        const failure = toAgentError(error);
        if (failure.kind !== "transient" || attempt >= this.#transientRetries || turn.signal?.aborted) throw failure;
        const delay = this.#retryBaseDelayMs * 2 ** attempt;
        log.warn(
          { attempt: attempt + 1, delayMs: delay, reason: failure.message },
          "transient agent failure; retrying",
        );
        await sleep(delay, undefined, turn.signal ? { signal: turn.signal } : undefined).catch(() => {
          throw new AgentError("cancelled", "cancelled while waiting to retry");
        });
      }
    }
  }

  /** What the run may still spend, read before every call (a retry sees what the failed one spent). */
  async #budget(runId: number, limits: RepoConfig | undefined, log: Logger): Promise<ModelBudget | undefined> {
    if (!limits) return undefined;
    try {
      return turnBudget(await listTurns(this.#db, runId), limits);
    } catch (error) {
      log.warn({ err: error }, "spend could not be read; the turn runs with the whole budget");
      return turnBudget([], limits);
    }
  }

  async #restoreState(stored: RunAgentSession, cwd: string, scope: string | undefined): Promise<void> {
    if (!stored.state || !this.#agent.portable) return;
    await this.#agent.portable.importSession(stored.sessionId, cwd, gunzipSync(stored.state), scope);
  }

  async #persist(
    runId: number,
    role: Role,
    sessionId: string,
    cwd: string,
    log: Logger,
    scope: string | undefined,
    size: { contextTokens: number; overheadTokens: number | undefined; newSession: boolean },
  ): Promise<boolean> {
    try {
      let state: Buffer | null = null;
      const exported = await this.#agent.portable?.exportSession(sessionId, cwd, scope);
      if (exported) {
        const compressed = gzipSync(exported);
        if (compressed.length <= this.#maxStateBytes) state = compressed;
        else
          log.warn(
            { sessionId, bytes: compressed.length, cap: this.#maxStateBytes },
            "session state over the cap; not exported",
          );
      }
      await saveRunAgentSession(this.#db, {
        runId,
        role,
        agent: this.#agent.name,
        sessionId,
        state,
        contextTokens: Math.round(size.contextTokens),
        ...(size.overheadTokens === undefined ? {} : { overheadTokens: Math.round(size.overheadTokens) }),
        // a new session has been told nothing yet (its caller records what, once the turn is read)
        ...(size.newSession ? { memory: null } : {}),
      });
      return true;
    } catch (error) {
      log.warn({ err: error, sessionId }, "session could not be saved");
      return false;
    }
  }

  async #forget(runId: number, role: Role, log: Logger): Promise<void> {
    try {
      await deleteRunAgentSession(this.#db, runId, role);
    } catch (error) {
      log.warn({ err: error }, "dead session could not be deleted; it will be replaced");
    }
  }

  async #startTurn(runId: number, role: Role, turn: TurnRequest, log: Logger): Promise<number | undefined> {
    try {
      return await startTurn(this.#db, {
        runId,
        role,
        trigger: turn.trigger,
        headSha: turn.headSha,
        agent: this.#agent.name,
      });
    } catch (error) {
      log.warn({ err: error }, "turn could not be recorded; running it anyway");
      return undefined;
    }
  }

  async #finishTurn(turnId: number | undefined, log: Logger, outcome: Parameters<typeof finishTurn>[2]): Promise<void> {
    if (turnId === undefined) return;
    try {
      await finishTurn(this.#db, turnId, outcome);
    } catch (error) {
      log.warn({ err: error, turnId }, "turn outcome could not be recorded");
    }
  }
}

/** How many of a session's latest turns its expected growth is read from. */
const GROWTH_WINDOW = 5;

/** A prompt's size in tokens, estimated as providers' tokenizers average on code and prose: 4 bytes each. */
function promptTokens(prompt: string): number {
  return Math.ceil(Buffer.byteLength(prompt) / 4);
}
