import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** Adds a commit to the workspace, as a push checked out between two turns does. */
export type CommitIn = (file: string, text: string, subject: string) => void;

/** A PR's workspace as an agent's turn sees it: a git repository at `dir` on branch `feature`, `app.ts` committed. */
export function featureWorkspace(dir: string): CommitIn {
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: dir });
  execFileSync("git", ["init", "-q", "-b", "feature", dir]);
  const commit: CommitIn = (file, text, subject) => {
    writeFileSync(join(dir, file), text);
    git("add", "-A");
    git("commit", "-q", "-m", subject);
  };
  commit("app.ts", "export const a = 1;\n", "first commit subject");
  return commit;
}
