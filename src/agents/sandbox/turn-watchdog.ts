import { readdir, readFile, lstat } from "node:fs/promises";
import { join } from "node:path";
import { killPid, type TurnCgroup } from "./turn-cgroup.js";
import { type TurnLimits } from "../../config/env/turn-limits.js";
import { limitReason } from "./limit-reason.js";

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
  const fileCap = options.limits.maxFileMb * MB;
  return new TurnWatch(options, fileCap, await diskUse(options.writable, fileCap));
}

/** One turn's watch: its samples (one of each kind at a time), and the first limit passed, breached once. */
class TurnWatch implements TurnWatchdog {
  #reason: string | undefined;
  #root: number | undefined;
  #timer: NodeJS.Timeout | undefined;
  #diskTimer: NodeJS.Timeout | undefined;
  #sampling = false;
  #walking = false;

  constructor(
    private readonly options: TurnWatchdogOptions,
    private readonly fileCap: number,
    /** The writable paths' use before the turn. */
    private readonly baseline: DiskUse,
  ) {}

  get reason(): string | undefined {
    return this.#reason;
  }

  watch(pid: number): void {
    this.#root = pid;
    this.#timer = setInterval(() => void this.#sample(), SAMPLE_MS);
    this.#diskTimer = setInterval(() => void this.#sampleDisk(), DISK_SAMPLE_MS);
    this.#timer.unref();
    this.#diskTimer.unref();
  }

  async stop(): Promise<void> {
    const cgroup = this.options.cgroup;
    clearInterval(this.#timer);
    clearInterval(this.#diskTimer);
    if (this.#reason === undefined && cgroup) {
      if (await cgroup.hitProcessLimit()) await this.#breach("maxProcesses");
      else if (await cgroup.hitMemoryLimit()) await this.#breach("maxMemoryMb");
    }
    while (this.#walking) await new Promise((resolve) => setTimeout(resolve, 20));
    await this.#sampleDisk();
  }

  /** Every process of the turn killed, and the reason told once. */
  async #breach(limit: keyof TurnLimits): Promise<void> {
    if (this.#reason !== undefined) return;
    const { cgroup, limits } = this.options;
    this.#reason = limitReason(limit, limits);
    if (cgroup) for (const pid of await cgroup.pids()) killPid(pid);
    else if (this.#root !== undefined) for (const pid of await descendants(this.#root)) killPid(pid);
    this.options.onBreach(this.#reason);
  }

  async #sample(): Promise<void> {
    if (this.#sampling || this.#reason !== undefined) return;
    this.#sampling = true;
    try {
      const passed = await processLimitPassed(this.options.limits, this.options.cgroup, this.#root);
      if (passed) await this.#breach(passed);
    } finally {
      this.#sampling = false;
    }
  }

  async #sampleDisk(): Promise<void> {
    if (this.#walking || this.#reason !== undefined) return;
    this.#walking = true;
    const { limits, writable } = this.options;
    try {
      const now = await diskUse(writable, this.fileCap);
      if ([...now.bigFiles].some((path) => !this.baseline.bigFiles.has(path))) return await this.#breach("maxFileMb");
      if (now.bytes - this.baseline.bytes > limits.maxWorkspaceMb * MB) return await this.#breach("maxWorkspaceMb");
    } finally {
      this.#walking = false;
    }
  }
}

/** The process or memory limit the turn is past (its cgroup's counters, else its /proc descendants'), if any. */
async function processLimitPassed(
  limits: TurnLimits,
  cgroup: TurnCgroup | undefined,
  root: number | undefined,
): Promise<"maxProcesses" | "maxMemoryMb" | undefined> {
  if (cgroup) {
    if ((await cgroup.hitProcessLimit()) || ((await cgroup.processCount()) ?? 0) >= limits.maxProcesses)
      return "maxProcesses";
    if (await cgroup.hitMemoryLimit()) return "maxMemoryMb";
  } else if (root !== undefined) {
    const pids = await descendants(root);
    if (pids.length >= limits.maxProcesses) return "maxProcesses";
    if ((await rssBytes(pids)) > limits.maxMemoryMb * MB) return "maxMemoryMb";
  }
  return undefined;
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
