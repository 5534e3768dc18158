import { readdir, readFile, lstat } from "node:fs/promises";
import { join } from "node:path";
import { killPid, type TurnCgroup } from "./turn-cgroup.js";
import { limitReason, type TurnLimits } from "./turn-limits.js";

const SAMPLE_MS = 250;
const DISK_SAMPLE_MS = 2000;
/** A walk of the writable paths stops after this many entries (a tree that big is over any sane limit anyway). */
const MAX_WALK_ENTRIES = 200_000;
const MB = 1024 * 1024;

export interface TurnWatchdogOptions {
  limits: TurnLimits;
  cgroup: TurnCgroup | undefined;
  /** The writable paths whose growth is bounded (the fixer's workspace, the agent home). */
  writable: string[];
  /** Called once, on the first limit passed: the caller stops the turn. */
  onBreach: (reason: string) => void;
}

export interface TurnWatchdog {
  /** Starts sampling the turn whose outermost process is `pid`. */
  watch(pid: number): void;
  /** One last look (a limit passed just before the turn ended), then stop. */
  stop(): Promise<void>;
  readonly reason: string | undefined;
}

interface DiskUse {
  bytes: number;
  bigFiles: Set<string>;
}

/**
 * Samples a turn's process count and memory (its cgroup's counters, else the /proc descendants of
 * its outermost process) every SAMPLE_MS and its writable paths' disk use every DISK_SAMPLE_MS; on
 * the first limit passed it kills every process of the turn and reports the reason once.
 */
export async function startTurnWatchdog(options: TurnWatchdogOptions): Promise<TurnWatchdog> {
  const { limits, cgroup } = options;
  const fileCap = limits.maxFileMb * MB;
  const baseline = await diskUse(options.writable, fileCap);
  let reason: string | undefined;
  let root: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let diskTimer: NodeJS.Timeout | undefined;
  let sampling = false;
  let walking = false;

  const breach = async (limit: keyof TurnLimits): Promise<void> => {
    if (reason !== undefined) return;
    reason = limitReason(limit, limits);
    if (cgroup) for (const pid of await cgroup.pids()) killPid(pid);
    else if (root !== undefined) for (const pid of await descendants(root)) killPid(pid);
    options.onBreach(reason);
  };

  const sample = async (): Promise<void> => {
    if (sampling || reason !== undefined) return;
    sampling = true;
    try {
      if (cgroup) {
        if ((await cgroup.hitProcessLimit()) || ((await cgroup.processCount()) ?? 0) >= limits.maxProcesses)
          return await breach("maxProcesses");
        if (await cgroup.hitMemoryLimit()) return await breach("maxMemoryMb");
      } else if (root !== undefined) {
        const pids = await descendants(root);
        if (pids.length >= limits.maxProcesses) return await breach("maxProcesses");
        if ((await rssBytes(pids)) > limits.maxMemoryMb * MB) return await breach("maxMemoryMb");
      }
    } finally {
      sampling = false;
    }
  };

  const sampleDisk = async (): Promise<void> => {
    if (walking || reason !== undefined) return;
    walking = true;
    try {
      const now = await diskUse(options.writable, fileCap);
      if ([...now.bigFiles].some((path) => !baseline.bigFiles.has(path))) return await breach("maxFileMb");
      if (now.bytes - baseline.bytes > limits.maxWorkspaceMb * MB) return await breach("maxWorkspaceMb");
    } finally {
      walking = false;
    }
  };

  return {
    watch(pid: number): void {
      root = pid;
      timer = setInterval(() => void sample(), SAMPLE_MS);
      diskTimer = setInterval(() => void sampleDisk(), DISK_SAMPLE_MS);
      timer.unref();
      diskTimer.unref();
    },
    async stop(): Promise<void> {
      clearInterval(timer);
      clearInterval(diskTimer);
      if (reason === undefined && cgroup) {
        if (await cgroup.hitProcessLimit()) await breach("maxProcesses");
        else if (await cgroup.hitMemoryLimit()) await breach("maxMemoryMb");
      }
      while (walking) await new Promise((resolve) => setTimeout(resolve, 20));
      await sampleDisk();
    },
    get reason() {
      return reason;
    },
  };
}

/** Allocated bytes under the paths (not following links, skipping a top-level .git), and files at the cap. */
async function diskUse(paths: string[], fileCap: number): Promise<DiskUse> {
  const use: DiskUse = { bytes: 0, bigFiles: new Set() };
  let entries = 0;
  const stack = [...paths];
  while (stack.length > 0 && entries < MAX_WALK_ENTRIES) {
    const dir = stack.pop()!;
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (++entries > MAX_WALK_ENTRIES) break;
      if (name === ".git" && paths.includes(dir)) continue;
      const path = join(dir, name);
      try {
        const stat = await lstat(path);
        use.bytes += stat.blocks * 512;
        if (stat.isDirectory()) stack.push(path);
        else if (stat.isFile() && stat.size >= fileCap) use.bigFiles.add(path);
      } catch {
        // removed meanwhile
      }
    }
  }
  return use;
}

/** Every live descendant of `root` (root included), from /proc. */
async function descendants(root: number): Promise<number[]> {
  const children = new Map<number, number[]>();
  for (const name of await readdir("/proc").catch(() => [] as string[])) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = await readFile(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    } catch {
      // exited
    }
  }
  const found: number[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    found.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return found;
}

async function rssBytes(pids: number[]): Promise<number> {
  let total = 0;
  for (const pid of pids) {
    try {
      const match = /^VmRSS:\s+(\d+) kB/m.exec(await readFile(`/proc/${pid}/status`, "utf8"));
      if (match) total += Number(match[1]) * 1024;
    } catch {
      // exited
    }
  }
  return total;
}
