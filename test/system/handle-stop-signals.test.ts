import { EventEmitter } from "node:events";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { handleStopSignals } from "../../src/system/handle-stop-signals.js";

/** Signals at the given times (ms), and what the app did. */
function run(signals: [number, "SIGINT" | "SIGTERM"][], options: { launcherGoneAt?: number } = {}) {
  const source = new EventEmitter();
  let now = 0;
  const did: string[] = [];
  const stops = handleStopSignals({
    log: pino({ level: "silent" }),
    stopGracefully: () => did.push(`graceful@${now}`),
    stopAtOnce: () => did.push(`at once@${now}`),
    now: () => now,
    source,
  });
  const events: [number, () => void][] = signals.map(([at, signal]) => [at, () => source.emit(signal)]);
  if (options.launcherGoneAt !== undefined)
    events.push([options.launcherGoneAt, () => stops.stop({ reason: "launcher gone" })]);
  for (const [at, emit] of events.sort((a, b) => a[0] - b[0])) {
    now = at;
    emit();
  }
  return did;
}

describe("handleStopSignals", () => {
  it.each<[string, [number, "SIGINT" | "SIGTERM"][], string[]]>([
    ["one signal", [[0, "SIGTERM"]], ["graceful@0"]],
    [
      "Ctrl-C with the copies npm and tsx forward",
      [
        [0, "SIGINT"],
        [32, "SIGINT"],
        [60, "SIGINT"],
      ],
      ["graceful@0"],
    ],
    [
      "SIGTERM to the group, then a forwarded SIGINT",
      [
        [0, "SIGTERM"],
        [40, "SIGINT"],
      ],
      ["graceful@0"],
    ],
    [
      "a second Ctrl-C seconds later",
      [
        [0, "SIGINT"],
        [30, "SIGINT"],
        [3000, "SIGINT"],
      ],
      ["graceful@0", "at once@3000"],
    ],
    [
      "a second signal just past the window",
      [
        [0, "SIGTERM"],
        [1500, "SIGTERM"],
      ],
      ["graceful@0", "at once@1500"],
    ],
  ])("%s", (_, signals, expected) => {
    expect(run(signals)).toEqual(expected);
  });

  it("the launcher gone starts the same graceful stop, once; a signal seconds later still stops at once", () => {
    expect(run([[5000, "SIGTERM"]], { launcherGoneAt: 0 })).toEqual(["graceful@0", "at once@5000"]);
    expect(run([[0, "SIGTERM"]], { launcherGoneAt: 200 })).toEqual(["graceful@0"]);
  });
});
