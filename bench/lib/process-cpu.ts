import { readFileSync } from "node:fs";
import { descendants } from "../../test/helpers/descendants.js";

/** Clock ticks per second of /proc's utime and stime (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU ticks of a process from /proc/<pid>/stat: utime + stime (all its threads), and with `reaped` also
 * cutime + cstime (its children it has waited for).
 */
function cpuTicks(pid: number, reaped: boolean): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const own = Number(fields[11]) + Number(fields[12]);
  return reaped ? own + Number(fields[13]) + Number(fields[14]) : own;
}

/**
 * CPU time the process itself has used, in ms (all its threads; child processes such as git or an agent
 * CLI are not included).
 */
export function processCpuMs(pid: number): number {
  return (cpuTicks(pid, false) * 1000) / TICKS_PER_SECOND;
}

/**
 * CPU time, in ms, of a process and of every process below it that is alive now, each with the CPU of
 * its children it has already reaped: the whole app — its worker process, the embedded database, the git
 * launcher and the git commands it ran.
 */
export function processTreeCpuMs(pid: number): number {
  let ticks = 0;
  for (const p of [pid, ...descendants(pid)]) {
    try {
      ticks += cpuTicks(p, true);
    } catch {
      // gone meanwhile
    }
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}
