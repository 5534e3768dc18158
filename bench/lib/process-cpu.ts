import { readdirSync, readFileSync } from "node:fs";

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

/**
 * CPU time, in ms, of a process and of every process below it that is alive now, each with the CPU of
 * its children it has already reaped (cutime + cstime): the whole app — its worker process, the embedded
 * database, the git launcher and the git commands it ran.
 */
export function processTreeCpuMs(pid: number): number {
  const parentOf = new Map<number, number>();
  const stats = new Map<number, string[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parentOf.set(Number(entry), Number(fields[1]));
      stats.set(Number(entry), fields);
    } catch {
      // gone meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) for (const [child, ppid] of parentOf) if (ppid === tree[i]) tree.push(child);
  let ticks = 0;
  for (const p of tree) {
    const f = stats.get(p);
    if (f) ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}
