import type { CloneGit } from "../clone/clone-git.js";

/**
 * The heads a replay reviews, oldest first: each commit on the head's first-parent line that the base
 * does not have (the PR's pushes, one commit each), at most `max` of them (the newest; the head is always
 * last). Without a replay, only the head.
 */
export async function replayPushes(
  git: CloneGit,
  baseSha: string,
  headSha: string,
  options: { replay: boolean; max?: number },
): Promise<string[]> {
  if (!options.replay) return [headSha];
  const out = await git(["rev-list", "--reverse", "--first-parent", headSha, `^${baseSha}`, "--"]);
  const commits = (out ?? "").split("\n").filter(Boolean);
  if (commits.length === 0 || commits.at(-1) !== headSha) return [headSha];
  return options.max !== undefined && commits.length > options.max ? commits.slice(-options.max) : commits;
}
