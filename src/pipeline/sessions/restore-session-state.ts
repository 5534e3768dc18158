import { gunzipSync } from "node:zlib";
import type { Agent } from "../../agents/types.js";
import type { RunAgentSession } from "../../db/schema.js";

/** Imports a stored session's exported state into the agent home, when there is some and the adapter can. */
export async function restoreSessionState(
  agent: Agent,
  stored: RunAgentSession,
  cwd: string,
  scope: string | undefined,
): Promise<void> {
  if (!stored.state || !agent.portable) return;
  await agent.portable.importSession(stored.sessionId, cwd, gunzipSync(stored.state), scope);
}
