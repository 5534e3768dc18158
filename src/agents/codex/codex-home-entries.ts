import { lstat, rm } from "node:fs/promises";
import { join } from "node:path";

/**
 * Entries of a CODEX_HOME whose kind codex takes for granted: a file where it makes a directory (or the
 * other way round) makes it exit before the turn starts. A turn writes its home, and the home is kept for
 * the later turns of its run and role, so each is put right before every turn: what is not of its kind
 * (a link included) is removed, and codex makes it afresh.
 */
const DIRECTORIES = ["thread-writer-locks", "tmpdir", "sessions", "tmp", "shell_snapshots"];
const FILES = ["installation_id"];

/** Removes what an earlier turn put at those places in `home` that is not of the kind codex needs there. */
export async function resetCodexHomeEntries(home: string): Promise<void> {
  const check = async (name: string, wanted: "directory" | "file") => {
    const path = join(home, name);
    const stat = await lstat(path).catch(() => undefined);
    if (!stat) return;
    const right = wanted === "directory" ? stat.isDirectory() : stat.isFile();
    if (!right) await rm(path, { recursive: true, force: true }); // rm never follows links
  };
  await Promise.all([
    ...DIRECTORIES.map((name) => check(name, "directory")),
    ...FILES.map((name) => check(name, "file")),
  ]);
}
