/** A session is never shared between roles. The verifier (always fresh) checks a fixer's claims. */
import type { Role } from "../domain/role.js";
import type { AgentModel } from "./agent-model.js";
import type { ModelBudget } from "./sandbox/model-meter.js";

export type { Role };

export interface AgentUsage {
  /** Input tokens, cached ones included. */
  tokensIn: number;
  tokensOut: number;
  /** Of tokensIn: read from the provider's prompt cache, and written to it; absent when not reported. */
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  /** Input tokens of the turn's largest single model request: the session's size. Absent when unknown. */
  contextTokens?: number;
  /** Dollars, when the agent reports it. */
  costUsd?: number;
}

export interface AgentRunOptions {
  prompt: string;
  /** The workspace the agent works in. */
  cwd: string;
  role: Role;
  /** Resume this session; absent = start a new one. */
  sessionId?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /**
   * Whose CLI state this call uses (e.g. the installation id): adapters keep one CLI config dir
   * per scope. Absent = "default".
   */
  scope?: string;
  /** What the turn may still spend under the PR's limits; the model proxy stops the turn past it. */
  budget?: ModelBudget;
}

export interface AgentResult {
  /** The agent's final message. */
  text: string;
  /** The final message parsed as JSON, when it holds a JSON value. */
  json?: unknown;
  /** The session id the agent reports after the call (the latest always wins). */
  sessionId?: string;
  /** True when the call continued the session it was asked to resume. */
  resumed: boolean;
  usage: AgentUsage;
}

/** Session state an adapter can carry between machines (transcript, rollout file). */
export interface PortableSessions {
  /** The state of a session after a turn, or undefined when there is nothing to export. */
  exportSession(sessionId: string, cwd: string, scope?: string): Promise<Uint8Array | undefined>;
  /** Puts exported state back before a resume, when the local copy is missing. */
  importSession(sessionId: string, cwd: string, state: Uint8Array, scope?: string): Promise<void>;
}

export interface Agent {
  /** Stored with every session it mints: a session id means nothing to another adapter. */
  readonly name: string;
  readonly supportsResume: boolean;
  /** Present when the adapter can export and re-import its sessions. */
  readonly portable?: PortableSessions;
  /** The model its turns run, as configured and as its CLI sends it; absent for an agent with no model. */
  resolveModel?(): Promise<AgentModel>;
  run(options: AgentRunOptions): Promise<AgentResult>;
}
