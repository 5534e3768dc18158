import { formatMilliseconds } from "./format-milliseconds.js";

/** How long from start to end: `850 ms`, `42 s`, `3 m 05 s`, `1 h 02 m`; `running` without an end. */
export function formatDuration(start: Date, end: Date | null): string {
  if (!end) return "running";
  return formatMilliseconds(end.getTime() - start.getTime());
}
