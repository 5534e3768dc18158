import { codeSpan } from "./code-span.js";
import type { FixTurn } from "./fix-turn.js";

/** The reply to a fix refused before it could be pushed: why, the paths that made it so, and the branch untouched. */
export function replyNotPushed(turn: FixTurn, branch: string, why: string, paths: string[]): Promise<void> {
  return turn.reply(
    `${turn.who}The fix was not pushed: ${why}\n\n${paths.map((p) => `- ${codeSpan(p)}`).join("\n")}\n\nNothing was changed on \`${branch}\`.`,
  );
}
