import { readFileSync } from "node:fs";
import { descendants } from "../../test/helpers/descendants.js";

/** One process of a tree: its pid, command line and resident memory in MiB. */
export interface ProcessRss {
  pid: number;
  command: string;
  rssMiB: number;
  /** Proportional share (PSS): each page shared with other processes (node's own code, say) divided among them. */
  pssMiB: number;
}

/**
 * Resident memory of `pid` and of every process below it that is alive now, from the kernel
 * (/proc/<pid>/status VmRSS: anonymous, file-backed and shared pages the process has mapped in). A page
 * two processes share counts in both, as `ps` and `top` show it; processes gone meanwhile are skipped.
 */
export function processTreeRss(pid: number): { totalMiB: number; totalPssMiB: number; processes: ProcessRss[] } {
  const processes: ProcessRss[] = [];
  for (const p of [pid, ...descendants(pid)]) {
    const rssKiB = vmRssKiB(p);
    if (rssKiB === undefined) continue;
    processes.push({ pid: p, command: commandOf(p), rssMiB: mib(rssKiB), pssMiB: mib(pssKiB(p)) });
  }
  const sum = (key: "rssMiB" | "pssMiB") => Math.round(processes.reduce((total, p) => total + p[key], 0) * 10) / 10;
  return { totalMiB: sum("rssMiB"), totalPssMiB: sum("pssMiB"), processes };
}

const mib = (kib: number) => Math.round((kib / 1024) * 10) / 10;

/** /proc/<pid>/smaps_rollup's Pss (0 when gone or unreadable). */
function pssKiB(pid: number): number {
  try {
    return Number(/^Pss:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function vmRssKiB(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : 0; // a zombie has no VmRSS line: nothing resident
  } catch {
    return undefined;
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
  } catch {
    return "?";
  }
}
