import { symlinkEscape } from "../../git/is-escaping-symlink.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import { codeSpan } from "./code-span.js";
import { shortSha } from "../../text/labels.js";
import { listed } from "./listed.js";
import { recordRefusedPush } from "./record-refused-push.js";
import type { BranchTip, FixCommit, FixTurn } from "./fix-turn.js";

/**
 * Nothing that points out of the repository: every link's chain, followed through the other links of the new
 * tree, stays inside it (a link that already led out before the fix, unchanged, is the PR's own). True when
 * one leads out: the fix is refused, and the reply lists the links.
 */
export async function refuseEscapingSymlinks(
  deps: PipelineDeps,
  turn: FixTurn,
  tip: BranchTip,
  commit: FixCommit,
): Promise<boolean> {
  const { workspace, startSha } = tip;
  const { sha } = commit;
  const [before, after] = await Promise.all([workspace.symlinksAt(startSha), workspace.symlinksAt(sha)]);
  const escaping = [...after]
    .map(([path, linkTarget]) => ({ path, target: linkTarget, escape: symlinkEscape(path, after) }))
    .filter(
      (l) =>
        l.escape !== undefined && !(before.get(l.path) === l.target && symlinkEscape(l.path, before) !== undefined),
    );
  if (escaping.length === 0) return false;
  turn.log.warn(
    { sha, links: escaping.map((l) => l.path) },
    "fix refused: it adds symbolic links that point outside the repository",
  );
  await recordRefusedPush(
    deps,
    turn,
    "escaping_symlink",
    `fix ${shortSha(sha)} not pushed: symbolic links that lead out of the repository at ${listed(escaping.map((l) => l.path))}`,
  );
  const list = escaping
    .slice(0, 20)
    .map(
      (l) =>
        `- ${codeSpan(l.path)} → ${codeSpan(l.target.slice(0, 200))}${l.escape === "cycle" ? " (a cycle of links)" : ""}`,
    )
    .join("\n");
  await turn.reply(
    `${turn.who}The fix was not pushed: it adds or retargets a symbolic link that points outside the repository (followed through the tree's other links), or a chain of links that never ends, which no-mistakes never commits.\n\n${list}\n\nNothing was changed on \`${tip.target.branch}\`.`,
  );
  return true;
}
