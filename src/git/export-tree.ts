import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GitError } from "./git-error.js";
import { gitEnv } from "./git-env.js";
import { processLauncher } from "../system/process-launcher.js";

/**
 * Unpacks a `git archive` tar file into `dest` (made if missing): the tree of one commit, links as links,
 * no `.git`. A tree holds no `..` and no path through a link, so nothing lands outside `dest`.
 */
export async function unpackTree(tarFile: string, dest: string, timeoutMs = 10 * 60_000): Promise<void> {
  await mkdir(dest, { recursive: true });
  const result = await processLauncher().run({
    file: "tar",
    args: ["-x", "--no-same-owner", "--no-same-permissions", "-f", tarFile, "-C", dest],
    cwd: dest,
    env: gitEnv(),
    timeoutMs,
  });
  if (result.exitCode !== 0) {
    const stderr = result.startError ?? result.stderr.toString("utf8").trim().slice(0, 500);
    throw new GitError(result.timedOut ? "timeout" : "other", `unpacking the tree failed: ${stderr}`, {
      subcommand: "archive",
      exitCode: result.exitCode ?? undefined,
      stderr,
    });
  }
}

/** A scratch folder for the archive on its way. */
export async function withArchiveFile<T>(work: (file: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "nm-tree-"));
  try {
    return await work(join(dir, "tree.tar"));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
