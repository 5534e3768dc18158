import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { ConfigError } from "../../config/config-error.js";
import {
  currentProcess,
  isProcessAlive,
  processIdentity,
  type ProcessIdentity,
} from "../../system/process-identity.js";

/** How long a new owner waits for the database process of an owner that is gone to finish closing the files. */
export const SERVER_EXIT_WAIT_MS = 15_000;

export interface DataDirLock {
  /** The lock file: `<dir>.lock`, holding the owner's host, pid and kernel start time, and its database process's. */
  path: string;
  /**
   * Records the process that opens the data files for this owner (its database child process). Call it
   * before that process opens them: the next owner waits for it too, not only for this one.
   */
  recordServer(pid: number): void;
  release(): void;
}

/** The lock file's content: the owning app process, and the process that has the data files open for it. */
interface Holder extends ProcessIdentity {
  server?: ProcessIdentity;
}

/**
 * Makes this process the one owner of an embedded database directory (PostgreSQL data files must have
 * one writer). The lock is a file beside the directory naming its owner and the owner's database process;
 * it is taken over only when that owner is gone (pid gone, a zombie, or reused by a later process: see
 * isProcessAlive), so a killed process never keeps the directory from opening. The database process of an
 * owner that is gone closes the files and exits by itself; it is waited for (up to `serverExitWaitMs`)
 * before the directory is taken over. An owner on another host cannot be checked from here and is taken as
 * alive. Throws a ConfigError naming the directory and the owner's pid otherwise.
 */
export async function lockDataDir(dir: string, options: { serverExitWaitMs?: number } = {}): Promise<DataDirLock> {
  const path = `${dir}.lock`;
  const self = currentProcess();
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreate(path, self))
      return { path, recordServer: (pid) => recordServer(path, self, pid), release: () => releaseIfOurs(path, self) };
    const read = readHolder(path);
    if (read === "missing") continue; // released meanwhile
    if (read !== "unreadable") {
      const holder = read.holder;
      if (holder.host !== self.host || isProcessAlive(holder)) {
        const where = holder.host === self.host ? "" : ` on host ${holder.host}`;
        throw new ConfigError("DATA_DIR", [
          `the embedded database ${dir} is in use by another no-mistakes process (pid ${holder.pid}${where}); one process per DATA_DIR. ` +
            `Stop that process, or give this one its own DATA_DIR (or a DATABASE_URL)` +
            (where ? `. If that process is gone, delete ${path}` : ""),
        ]);
      }
      if (holder.server && !(await exited(holder.server, options.serverExitWaitMs ?? SERVER_EXIT_WAIT_MS))) {
        throw new ConfigError("DATA_DIR", [
          `the embedded database ${dir} is still open in process ${holder.server.pid}, the database process of a no-mistakes process that is gone (pid ${holder.pid}), ` +
            `and it did not exit within ${Math.round((options.serverExitWaitMs ?? SERVER_EXIT_WAIT_MS) / 1000)} s. Stop that process and start again`,
        ]);
      }
      const now = readHolder(path);
      if (now === "missing") continue;
      if (now === "unreadable" || now.text !== read.text) continue; // another process took it over meanwhile: look again
    }
    rmSync(path, { force: true }); // its owner is gone
  }
  throw new ConfigError("DATA_DIR", [
    `could not lock the embedded database ${dir}: ${path} keeps changing (another process starting on the same DATA_DIR?)`,
  ]);
}

/** Whether the process has exited within `waitMs`. */
async function exited(identity: ProcessIdentity, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  while (isProcessAlive(identity)) {
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
  return true;
}

/** Creates the lock file with its content in one step (a hard link fails when the name exists). */
function tryCreate(path: string, self: ProcessIdentity): boolean {
  const draft = writeDraft(path, self);
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

function writeDraft(path: string, holder: Holder): string {
  const draft = `${path}.${process.pid}.${Date.now()}`;
  writeFileSync(draft, `${JSON.stringify(holder)}\n`, { mode: 0o600 });
  return draft;
}

/** Replaces our lock's content in one step (a rename), adding the database process. */
function recordServer(path: string, self: ProcessIdentity, pid: number): void {
  if (!ours(path, self)) throw new Error(`${path} is no longer held by this process`);
  const draft = writeDraft(path, { ...self, server: processIdentity(pid) });
  try {
    renameSync(draft, path);
  } finally {
    rmSync(draft, { force: true });
  }
}

function parseIdentity(value: unknown): ProcessIdentity | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { pid, host, started } = value as Partial<ProcessIdentity>;
  if (typeof pid !== "number" || typeof host !== "string" || typeof started !== "string") return undefined;
  return { host, pid, started };
}

function readHolder(path: string): { holder: Holder; text: string } | "missing" | "unreadable" {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as { server?: unknown };
    const owner = parseIdentity(parsed);
    if (!owner) return "unreadable";
    const server = parseIdentity(parsed.server);
    return { holder: server ? { ...owner, server } : owner, text };
  } catch {
    return "unreadable"; // not written by us: an owner is never mid-write (see tryCreate, recordServer)
  }
}

function ours(path: string, self: ProcessIdentity): boolean {
  const read = readHolder(path);
  return (
    typeof read === "object" &&
    read.holder.host === self.host &&
    read.holder.pid === self.pid &&
    read.holder.started === self.started
  );
}

function releaseIfOurs(path: string, self: ProcessIdentity): void {
  if (ours(path, self)) rmSync(path, { force: true });
}
