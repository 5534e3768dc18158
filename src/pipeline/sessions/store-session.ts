import { gzipSync } from "node:zlib";
import { saveRunAgentSession } from "../../db/run-agent-sessions.js";
import type { SessionDeps } from "./session-deps.js";
import type { SessionTurn } from "./session-turn.js";

/**
 * Saves the (run, role)'s session row: its id, its exported state (compressed, unless over the cap) and
 * its size. Whether it was saved; a failure is only logged.
 */
export async function storeSession(
  deps: SessionDeps,
  { runId, role, turn, scope, log }: SessionTurn,
  sessionId: string,
  size: { contextTokens: number; overheadTokens: number | undefined; newSession: boolean },
): Promise<boolean> {
  try {
    let state: Buffer | null = null;
    const exported = await deps.agent.portable?.exportSession(sessionId, turn.cwd, scope);
    if (exported) {
      const compressed = gzipSync(exported);
      if (compressed.length <= deps.maxStateBytes) state = compressed;
      else
        log.warn(
          { sessionId, bytes: compressed.length, cap: deps.maxStateBytes },
          "session state over the cap; not exported",
        );
    }
    await saveRunAgentSession(deps.db, {
      runId,
      role,
      agent: deps.agent.name,
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
