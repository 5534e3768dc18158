import { linkSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { ConfigError } from "../../config/config-error.js";
import { currentProcess, isProcessAlive, type ProcessIdentity } from "../../queue/process-identity.js";

export interface DataDirLock {
  /** The lock file: `<dir>.lock`, holding the owner's host, pid and kernel start time. */
  path: string;
  release(): void;
}

/**
 * Makes this process the one owner of an embedded database directory (PostgreSQL data files must have
 * one writer). The lock is a file beside the directory naming its owner; it is taken over only when that
 * owner is gone (pid gone, a zombie, or reused by a later process: see isProcessAlive), so a killed
 * process never keeps the directory from opening. An owner on another host cannot be checked from
 * here and is taken as alive. Throws a ConfigError naming the directory and the owner's pid otherwise.
 */
export function lockDataDir(dir: string): DataDirLock {
  const path = `${dir}.lock`;
  const self = currentProcess();
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreate(path, self)) return { path, release: () => releaseIfOurs(path, self) };
    const holder = readHolder(path);
    if (holder === "missing") continue; // released meanwhile
    if (holder !== "unreadable" && (holder.host !== self.host || isProcessAlive(holder))) {
      const where = holder.host === self.host ? "" : ` on host ${holder.host}`;
      throw new ConfigError("DATA_DIR", [
        `the embedded database ${dir} is in use by another no-mistakes process (pid ${holder.pid}${where}); one process per DATA_DIR. ` +
          `Stop that process, or give this one its own DATA_DIR (or a DATABASE_URL)` +
          (where ? `. If that process is gone, delete ${path}` : ""),
      ]);
    }
    rmSync(path, { force: true }); // its owner is gone
  }
  throw new ConfigError("DATA_DIR", [`could not lock the embedded database ${dir}: ${path} keeps changing (another process starting on the same DATA_DIR?)`]);
}

/** Creates the lock file with its content in one step (a hard link fails when the name exists). */
function tryCreate(path: string, self: ProcessIdentity): boolean {
  const draft = `${path}.${process.pid}.${Date.now()}`;
  writeFileSync(draft, `${JSON.stringify(self)}\n`, { mode: 0o600 });
  try {
    linkSync(draft, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}

function readHolder(path: string): ProcessIdentity | "missing" | "unreadable" {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<ProcessIdentity>;
    if (typeof parsed.pid !== "number" || typeof parsed.host !== "string" || typeof parsed.started !== "string") return "unreadable";
    return { host: parsed.host, pid: parsed.pid, started: parsed.started };
  } catch {
    return "unreadable"; // not written by us: an owner is never mid-write (see tryCreate)
  }
}

function releaseIfOurs(path: string, self: ProcessIdentity): void {
  const holder = readHolder(path);
  if (typeof holder === "object" && holder.host === self.host && holder.pid === self.pid && holder.started === self.started) rmSync(path, { force: true });
}
