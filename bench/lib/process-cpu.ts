import { readFileSync } from "node:fs";

/** Clock ticks per second of /proc's utime and stime (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time the process itself has used, in ms: utime + stime of /proc/<pid>/stat (all its threads;
 * child processes such as git or an agent CLI are not included).
 */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / TICKS_PER_SECOND;
}
