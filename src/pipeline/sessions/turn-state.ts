import type { SessionMode } from "../../db/turns.js";

/**
 * What a turn has become so far, set by its steps as they go: a turn that throws records the mode and
 * fallback reason it had reached when it threw.
 */
export interface TurnState {
  mode: SessionMode;
  fallbackReason?: string;
}
