import { existsSync, readFileSync } from "node:fs";
import type { ChildProcess } from "node:child_process";
import { sleep } from "./common.js";

/** One window of the app's event-loop delay (bench/servers/loop-delay-monitor.ts), in ms. */
export interface LoopDelayWindow {
  window: number;
  samples: number;
  /** One instant on the monotonic clock (µs, as CPU profiles count) and the wall clock (ms since the epoch). */
  clock: { monotonicUs: number; epochMs: number };
  raw: { p50: number; p99: number; max: number };
  delay: { p50: number; p90: number; p99: number; max: number };
  /** Garbage-collection pauses in the window (major: mark-compact); `pauses`: [start, ms since the epoch; duration ms; kind] of those ≥ 1 ms. */
  gc: {
    count: number;
    totalMs: number;
    maxMs: number;
    majorCount: number;
    majorMs: number;
    pauses: [number, number, string][];
  };
  usage: { minorPageFaults: number; voluntaryContextSwitches: number; involuntaryContextSwitches: number };
}

function windows(file: string): LoopDelayWindow[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LoopDelayWindow);
}

/** Closes the app's current loop-delay window (SIGUSR2) and returns it; a new one starts at once. */
export async function takeLoopDelay(child: ChildProcess, file: string): Promise<LoopDelayWindow> {
  const before = windows(file).length;
  child.kill("SIGUSR2");
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const all = windows(file);
    if (all.length > before) return all[before]!;
    await sleep(20);
  }
  throw new Error(`the app wrote no loop-delay window to ${file} within 10 s`);
}
