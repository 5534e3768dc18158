import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

/**
 * Why DATA_DIR cannot hold the app's files (the embedded database, the webhook journal, agent homes), or
 * undefined when it can: the directory is created if missing and a file written and removed in it.
 */
export function dataDirProblem(dir: string): string | undefined {
  const probe = join(dir, `.write-probe-${process.pid}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(probe, "");
    rmSync(probe);
    return undefined;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    const why =
      code === "EACCES" || code === "EPERM"
        ? "permission denied"
        : code === "ENOTDIR"
          ? "a file is in the way"
          : message;
    return `DATA_DIR: cannot create and write "${resolve(dir)}" (${why}${code ? `, ${code}` : ""}); set DATA_DIR to a directory the app may write, or fix its owner`;
  }
}
