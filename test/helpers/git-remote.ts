import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const AUTHOR = ["-c", "user.name=Dev", "-c", "user.email=dev@example.com", "-c", "commit.gpgsign=false"];

/** A file's content, or a symbolic link and its target. */
export type RemoteFile = string | { symlink: string };

/** A bare repository on disk standing in for GitHub's copy of the repo, plus a working clone to make commits. */
export class GitRemote {
  readonly bare: string;
  readonly work: string;

  constructor(root: string) {
    this.bare = join(root, "origin.git");
    this.work = join(root, "work");
    this.git(root, "init", "-q", "--bare", "-b", "main", this.bare);
    this.git(root, "init", "-q", "-b", "main", this.work);
  }

  /** Writes files (or symbolic links, `{ symlink: target }`) and commits them on the current branch; returns the new sha. */
  commit(files: Record<string, RemoteFile>, message = "change"): string {
    for (const [path, content] of Object.entries(files)) {
      const full = join(this.work, path);
      mkdirSync(dirname(full), { recursive: true });
      rmSync(full, { force: true });
      if (typeof content === "string") writeFileSync(full, content);
      else symlinkSync(content.symlink, full);
    }
    this.git(this.work, "add", "-A");
    this.git(this.work, ...AUTHOR, "commit", "-q", "-m", message);
    return this.sha("HEAD");
  }

  checkout(branch: string, create = false): void {
    this.git(this.work, "checkout", "-q", ...(create ? ["-b", branch] : [branch]));
  }

  /** Merges `branch` into the current branch with a merge commit (as an author merging the base into a PR); returns it. */
  merge(branch: string, message = `Merge ${branch}`): string {
    this.git(this.work, ...AUTHOR, "merge", "-q", "--no-ff", "--no-edit", "-m", message, branch);
    return this.sha("HEAD");
  }

  /** Moves the current branch to `sha` (rewriting history, as a force-push does). */
  resetHard(sha: string): void {
    this.git(this.work, "reset", "-q", "--hard", sha);
  }

  /** Pushes a branch to the bare repo (forced) and points refs/pull/<n>/head at it, as GitHub does. */
  publish(branch: string, pr?: number): string {
    this.git(this.work, "push", "-q", "--force", this.bare, `${branch}:refs/heads/${branch}`);
    const sha = this.sha(branch);
    if (pr !== undefined) this.git(this.bare, "update-ref", `refs/pull/${pr}/head`, sha);
    return sha;
  }

  sha(ref: string): string {
    return this.git(this.work, "rev-parse", ref).trim();
  }

  /** Reads a ref in the bare repository (what the "server" has). */
  remoteSha(ref: string): string {
    return this.git(this.bare, "rev-parse", ref).trim();
  }

  git(cwd: string, ...args: string[]): string {
    return execFileSync("git", args, {
      cwd,
      encoding: "utf8",
      env: { PATH: process.env.PATH, HOME: cwd, GIT_CONFIG_NOSYSTEM: "1" },
    });
  }
}
