import { readFileSync } from "node:fs";
import { hostname } from "node:os";

/**
 * Who a process is, in a way a reused pid cannot fake: its pid plus the moment the kernel started it
 * (field 22 of /proc/<pid>/stat, in clock ticks since boot). Where /proc is missing the start time is
 * empty and only the pid is compared.
 */
export interface ProcessIdentity {
  host: string;
  pid: number;
  /** Kernel start time of the pid ("" when unknown). */
  started: string;
}

/** /proc/<pid>/stat's state (field 3) and start time (field 22); undefined when the pid does not exist. */
function procStat(pid: number): { state: string; started: string } | undefined | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ESRCH") return undefined;
    return null; // no /proc here
  }
  // The command name (field 2) is in parentheses and may itself hold spaces or parentheses.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { state: fields[0] ?? "", started: fields[19] ?? "" };
}

let self: ProcessIdentity | undefined;

export function currentProcess(): ProcessIdentity {
  self ??= processIdentity(process.pid);
  return self;
}

/** The identity of a process on this host (a child this process started, say); `started` is "" when unknown. */
export function processIdentity(pid: number): ProcessIdentity {
  return { host: hostname(), pid, started: procStat(pid)?.started ?? "" };
}

/**
 * Whether the process is still running on this host: false for a pid that is gone, a zombie (dead,
 * waiting for its parent to reap it — `kill(pid, 0)` still succeeds on one) and a pid now used by a
 * process started later.
 */
export function isProcessAlive(identity: { pid: number; started: string }): boolean {
  const stat = procStat(identity.pid);
  if (stat === undefined) return false;
  if (stat === null) return signalable(identity.pid);
  if (stat.state === "Z" || stat.state === "X" || stat.state === "x") return false;
  return identity.started === "" || identity.started === stat.started;
}

function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
