import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tempDir } from "../helpers/temp-dir.js";

/** Runs git for test setup (not through the code under test), with a fixed author and no user config. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    "git",
    ["-c", "user.name=Test Author", "-c", "user.email=author@example.com", "-c", "init.defaultBranch=main", ...args],
    {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: cwd,
        LANG: "C",
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_GLOBAL: "/dev/null",
        GIT_AUTHOR_DATE: "2024-01-01T00:00:00Z",
        GIT_COMMITTER_DATE: "2024-01-01T00:00:00Z",
      },
    },
  ).trim();
}

/** A file's new content (string or bytes), or null to delete it. */
export type FileChanges = Record<string, string | Buffer | null>;

/** A bare "origin" repository and a working clone that pushes to it. */
export interface Origin {
  /** Directory holding origin.git (the GIT_PROJECT_ROOT for the HTTP server). */
  root: string;
  /** Path of the bare repository. */
  bare: string;
  /** The working clone. */
  work: string;
  /** Writes the files, commits everything and returns the commit sha. */
  commit(files: FileChanges, message?: string): string;
  /** Pushes HEAD to `branch` at origin (forced when asked). */
  push(branch: string, options?: { force?: boolean }): void;
  /** The sha `refs/heads/<branch>` has in the bare repository. */
  remoteSha(branch: string): string;
}

export function createOrigin(): Origin {
  const root = tempDir("nm-git-origin-");
  const bare = join(root, "origin.git");
  const work = join(root, "work");
  git(root, "init", "-q", "--bare", bare);
  git(root, "init", "-q", work);
  let counter = 0;
  return {
    root,
    bare,
    work,
    commit(files, message) {
      for (const [path, content] of Object.entries(files)) {
        const full = join(work, path);
        if (content === null) {
          rmSync(full, { force: true });
        } else {
          mkdirSync(dirname(full), { recursive: true });
          writeFileSync(full, content);
        }
      }
      git(work, "add", "--all");
      git(work, "commit", "-q", "--allow-empty", "-m", message ?? `commit ${++counter}`);
      return git(work, "rev-parse", "HEAD");
    },
    push(branch, options = {}) {
      git(work, "push", "-q", ...(options.force ? ["--force"] : []), bare, `HEAD:refs/heads/${branch}`);
    },
    remoteSha(branch) {
      return git(bare, "rev-parse", `refs/heads/${branch}`);
    },
  };
}
