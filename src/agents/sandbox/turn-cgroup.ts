import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readFile, rmdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

const ROOT = "/sys/fs/cgroup";

/** A fresh cgroup (v1 pids + memory, or one v2 group) for one turn, when the host lets the app make one. */
export interface TurnCgroup {
  /** The cgroup.procs files the wrapper writes its pid to before it execs bwrap. */
  procsFiles: string[];
  processCount(): Promise<number | undefined>;
  memoryBytes(): Promise<number | undefined>;
  /** True once a fork was refused at pids.max. */
  hitProcessLimit(): Promise<boolean>;
  /** True once the memory limit made the kernel kill a process. */
  hitMemoryLimit(): Promise<boolean>;
  /** Every pid in the group (to kill them). */
  pids(): Promise<number[]>;
  remove(): Promise<void>;
}

/**
 * The start of the name of every turn cgroup this process makes: its pid says whose a group is, so another
 * process of the app on the same host (a second worker, a test beside this one) never takes it for its own.
 */
export function turnCgroupPrefix(pid = process.pid): string {
  return `nm-turn-${pid}-`;
}

/** This process's own path in a hierarchy ("" for v2's unified entry `0::`). */
function ownPath(controller: string): string | undefined {
  for (const line of readFileSync("/proc/self/cgroup", "utf8").split("\n")) {
    const [, controllers, path] = line.split(":");
    if (controllers === undefined || path === undefined) continue;
    if (controller === "" ? controllers === "" : controllers.split(",").includes(controller)) return path;
  }
  return undefined;
}

async function readNumber(file: string): Promise<number | undefined> {
  try {
    const n = Number((await readFile(file, "utf8")).trim());
    return Number.isFinite(n) ? n : undefined;
  } catch {
    return undefined;
  }
}

async function readKey(file: string, key: string): Promise<number> {
  try {
    const match = new RegExp(`^${key} (\\d+)`, "m").exec(await readFile(file, "utf8"));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

async function readPids(file: string): Promise<number[]> {
  try {
    return (await readFile(file, "utf8")).split("\n").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * Makes the turn's cgroup below the app's own (so the app's own limits still hold), or returns
 * undefined when the host offers no writable one (the watchdog then counts /proc instead).
 */
export async function createTurnCgroup(maxProcesses: number, maxMemoryBytes: number): Promise<TurnCgroup | undefined> {
  const name = `${turnCgroupPrefix()}${randomBytes(6).toString("hex")}`;
  return (await createV1(name, maxProcesses, maxMemoryBytes)) ?? (await createV2(name, maxProcesses, maxMemoryBytes));
}

async function createV1(name: string, maxProcesses: number, maxMemory: number): Promise<TurnCgroup | undefined> {
  const pidsOwn = ownPath("pids");
  const memOwn = ownPath("memory");
  if (pidsOwn === undefined || memOwn === undefined || !existsSync(join(ROOT, "pids", "pids.max"))) {
    if (!existsSync(join(ROOT, "pids"))) return undefined;
  }
  const pids = join(ROOT, "pids", pidsOwn ?? "/", name);
  const memory = join(ROOT, "memory", memOwn ?? "/", name);
  const made: string[] = [];
  try {
    await mkdir(pids);
    made.push(pids);
    await writeFile(join(pids, "pids.max"), String(maxProcesses));
    await mkdir(memory);
    made.push(memory);
    await writeFile(join(memory, "memory.limit_in_bytes"), String(maxMemory));
    if (existsSync(join(memory, "memory.memsw.limit_in_bytes")))
      await writeFile(join(memory, "memory.memsw.limit_in_bytes"), String(maxMemory));
  } catch {
    for (const dir of made.reverse()) await rmdir(dir).catch(() => undefined);
    return undefined;
  }
  return {
    procsFiles: [join(pids, "cgroup.procs"), join(memory, "cgroup.procs")],
    processCount: () => readNumber(join(pids, "pids.current")),
    memoryBytes: () => readNumber(join(memory, "memory.usage_in_bytes")),
    hitProcessLimit: async () => (await readKey(join(pids, "pids.events"), "max")) > 0,
    hitMemoryLimit: async () => (await readKey(join(memory, "memory.oom_control"), "oom_kill")) > 0,
    pids: () => readPids(join(pids, "cgroup.procs")),
    remove: () => removeDirs([pids, memory], join(pids, "cgroup.procs")),
  };
}

async function createV2(name: string, maxProcesses: number, maxMemory: number): Promise<TurnCgroup | undefined> {
  if (!existsSync(join(ROOT, "cgroup.controllers"))) return undefined;
  const own = ownPath("");
  if (own === undefined) return undefined;
  const dir = join(ROOT, own, name);
  try {
    await mkdir(dir);
  } catch {
    return undefined;
  }
  try {
    await writeFile(join(dir, "pids.max"), String(maxProcesses));
    await writeFile(join(dir, "memory.max"), String(maxMemory));
    await writeFile(join(dir, "memory.swap.max"), "0").catch(() => undefined);
  } catch {
    await rmdir(dir).catch(() => undefined);
    return undefined;
  }
  return {
    procsFiles: [join(dir, "cgroup.procs")],
    processCount: () => readNumber(join(dir, "pids.current")),
    memoryBytes: () => readNumber(join(dir, "memory.current")),
    hitProcessLimit: async () => (await readKey(join(dir, "pids.events"), "max")) > 0,
    hitMemoryLimit: async () => (await readKey(join(dir, "memory.events"), "oom_kill")) > 0,
    pids: () => readPids(join(dir, "cgroup.procs")),
    remove: () => removeDirs([dir], join(dir, "cgroup.procs")),
  };
}

/** Kills what is left in the group, then removes it (a cgroup with members cannot be removed). */
async function removeDirs(dirs: string[], procs: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    for (const pid of await readPids(procs)) killPid(pid);
    let left = 0;
    for (const dir of dirs) {
      if (!existsSync(dir)) continue;
      await rmdir(dir).catch(() => left++);
    }
    if (left === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function killPid(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}
