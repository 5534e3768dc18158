import type { AgentResult } from "../../agents/types.js";
import type { SessionMode } from "../../db/turns.js";

export interface TurnOutcome {
  /** The `turns` row, when it could be recorded. */
  turnId?: number;
  result: AgentResult;
  mode: SessionMode;
  fallbackReason?: string;
}
