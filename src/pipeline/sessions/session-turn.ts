import type { Logger } from "pino";
import type { Role } from "../../agents/types.js";
import type { TurnRequest } from "./turn-request.js";

/** One turn of a (run, role) as the steps of RunSessions.run see it. */
export interface SessionTurn {
  runId: number;
  role: Role;
  /** What the caller asked; its `prompt` is what a resumed session is told. */
  turn: TurnRequest;
  /** The same turn with the prompt that stands alone, for a new session. */
  fresh: TurnRequest;
  /** The (run, role)'s agent home (agentScope). */
  scope: string;
  /** The turn's log, bound to its run and role. */
  log: Logger;
}
