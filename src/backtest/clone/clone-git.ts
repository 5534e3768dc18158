// The backtest's clone room: the local clone the PRs come from — git run in it (cloneGit, this file), the
// repositories its remotes name, a file of one of its revisions — and the stage repository whose objects the
// reviews' workspaces borrow. It imports no other room of the backtest.

import { runGit } from "../../git/run-git.js";

/** Runs git in the local clone; stdout, or undefined when the exit code is one of `absentCodes` (an answer: "not there"). */
export type CloneGit = (args: readonly string[], absentCodes?: readonly number[]) => Promise<string | undefined>;

/** Read-only git in the team's clone (nothing is written to it: refs the backtest needs live in its own stage repository). */
export function cloneGit(dir: string): CloneGit {
  return async (args, absentCodes = []) => {
    const result = await runGit(args, { cwd: dir, okExitCodes: absentCodes });
    return absentCodes.includes(result.exitCode) && result.exitCode !== 0 ? undefined : result.stdout;
  };
}
