import { appendFileSync } from "node:fs";
import { constants, monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";

/** The timer's period: every sample is at least this long, so it is taken off as the loop's own delay. */
export const LOOP_DELAY_RESOLUTION_MS = 10;

/**
 * Event-loop delay of this process, for the bench: a 10 ms `monitorEventLoopDelay` runs from start;
 * each SIGUSR2 appends one JSON line to `file` with the percentiles since the previous SIGUSR2 (the
 * first line covers the time since start) and starts a new window. Values are in ms, raw (the timer
 * period included, as Node records them) and as delay (period taken off). Each line also has the
 * window's garbage-collection pauses (count, total, longest, the major (mark-compact) ones apart, and
 * every pause of 1 ms or more with its start in ms since the epoch and its kind, to line up with slow answers) and the process's page faults and context
 * switches (voluntary: it waited; involuntary: it was taken off a CPU it wanted).
 */
export function startLoopDelayMonitor(file: string): void {
  const histogram = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
  histogram.enable();
  let window = 0;
  let gc = { count: 0, totalMs: 0, maxMs: 0, majorCount: 0, majorMs: 0, pauses: [] as [number, number, string][] };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.count++;
      gc.totalMs += entry.duration;
      gc.maxMs = Math.max(gc.maxMs, entry.duration);
      const kind = gcKind((entry as unknown as { detail?: { kind?: number } }).detail?.kind);
      if (kind === "major") {
        gc.majorCount++;
        gc.majorMs += entry.duration;
      }
      if (entry.duration >= 1)
        gc.pauses.push([Math.round(performance.timeOrigin + entry.startTime), hundredths(entry.duration), kind]);
    }
  }).observe({ entryTypes: ["gc"] });
  let usage = process.resourceUsage();
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  const delay = (ns: number) => Math.max(0, Math.round((ns / 1e6 - LOOP_DELAY_RESOLUTION_MS) * 100) / 100);
  process.on("SIGUSR2", () => {
    const now = process.resourceUsage();
    const line = {
      window: window++,
      // The same instant on the monotonic clock (CPU profiles' timestamps, µs) and the wall clock (ms since the epoch).
      clock: { monotonicUs: Number(process.hrtime.bigint() / 1000n), epochMs: Date.now() },
      samples: histogram.count,
      raw: { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) },
      delay: {
        p50: delay(histogram.percentile(50)),
        p90: delay(histogram.percentile(90)),
        p99: delay(histogram.percentile(99)),
        max: delay(histogram.max),
      },
      gc: { ...gc, totalMs: hundredths(gc.totalMs), maxMs: hundredths(gc.maxMs), majorMs: hundredths(gc.majorMs) },
      usage: {
        minorPageFaults: now.minorPageFault - usage.minorPageFault,
        voluntaryContextSwitches: now.voluntaryContextSwitches - usage.voluntaryContextSwitches,
        involuntaryContextSwitches: now.involuntaryContextSwitches - usage.involuntaryContextSwitches,
      },
    };
    gc = { count: 0, totalMs: 0, maxMs: 0, majorCount: 0, majorMs: 0, pauses: [] };
    usage = now;
    histogram.reset();
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  });
}

/** A duration in ms, to the hundredth. */
function hundredths(ms: number): number {
  return Math.round(ms * 100) / 100;
}

/** V8's kind of collection, as the gc performance entry's `detail.kind` gives it. */
function gcKind(kind: number | undefined): string {
  if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) return "major";
  if (kind === constants.NODE_PERFORMANCE_GC_MINOR) return "minor";
  if (kind === constants.NODE_PERFORMANCE_GC_INCREMENTAL) return "incremental";
  if (kind === constants.NODE_PERFORMANCE_GC_WEAKCB) return "weakcb";
  return String(kind);
}
