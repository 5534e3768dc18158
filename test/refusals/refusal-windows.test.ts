import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RefusalRow } from "../../src/db/refusals.js";
import { RefusalWindows } from "../../src/refusals/refusal-windows.js";

const MINUTE = 60_000;
const row = (kind: string, reason: string, where: Partial<RefusalRow> = {}): RefusalRow => ({
  kind,
  repositoryFullName: null,
  prNumber: null,
  actor: null,
  reason,
  ...where,
});

describe("RefusalWindows: at most one row per kind a window, with a count", () => {
  let written: RefusalRow[];
  let windows: RefusalWindows;
  beforeEach(() => {
    vi.useFakeTimers();
    written = [];
    windows = new RefusalWindows((r) => written.push(r), MINUTE);
  });
  afterEach(() => {
    windows.flush();
    vi.useRealTimers();
  });

  it("writes the first at once, counts the rest, and writes them as one row when the window ends", () => {
    windows.add(row("webhook_invalid", "bad signature 1"));
    expect(written).toEqual([row("webhook_invalid", "bad signature 1")]);
    for (let i = 2; i <= 500; i++) windows.add(row("webhook_invalid", `bad signature ${i}`));
    expect(written).toHaveLength(1);

    vi.advanceTimersByTime(MINUTE);
    expect(written).toEqual([
      row("webhook_invalid", "bad signature 1"),
      { ...row("webhook_invalid", "bad signature 500"), count: 499 },
    ]);
  });

  it("a flood that goes on is one row a window; a quiet window ends without one; the next refusal is written at once", () => {
    windows.add(row("intake_full", "first"));
    for (let minute = 1; minute <= 3; minute++) {
      for (let i = 0; i < 10; i++) windows.add(row("intake_full", `minute ${minute}`));
      vi.advanceTimersByTime(MINUTE);
    }
    expect(written.map((r) => [r.reason, r.count])).toEqual([
      ["first", undefined],
      ["minute 1", 10],
      ["minute 2", 10],
      ["minute 3", 10],
    ]);
    vi.advanceTimersByTime(MINUTE); // nothing held: the window ends quietly
    expect(written).toHaveLength(4);
    vi.advanceTimersByTime(10 * MINUTE);
    windows.add(row("intake_full", "after the quiet"));
    expect(written.at(-1)).toEqual(row("intake_full", "after the quiet"));
  });

  it("keeps each kind's window apart", () => {
    windows.add(row("webhook_invalid", "a"));
    windows.add(row("webhook_body_too_large", "b"));
    windows.add(row("webhook_invalid", "c"));
    expect(written.map((r) => r.reason)).toEqual(["a", "b"]);
    vi.advanceTimersByTime(MINUTE);
    expect(written.map((r) => [r.kind, r.reason, r.count])).toEqual([
      ["webhook_invalid", "a", undefined],
      ["webhook_body_too_large", "b", undefined],
      ["webhook_invalid", "c", 1],
    ]);
  });

  it("the row of held refusals names the repository, PR and actor only when they all share it", () => {
    const where = { repositoryFullName: "octo/widgets", prNumber: 7, actor: "octocat" };
    windows.add(row("intake_full", "opens", where));
    windows.add(row("intake_full", "x", where));
    windows.add(row("intake_full", "y", { ...where, prNumber: 8, actor: "hubot" }));
    windows.add(row("intake_stopping", "opens", where));
    windows.add(row("intake_stopping", "z", where));
    windows.flush();
    expect(written.slice(2)).toEqual([
      { kind: "intake_full", repositoryFullName: "octo/widgets", prNumber: null, actor: null, reason: "y", count: 2 },
      { kind: "intake_stopping", ...where, reason: "z", count: 1 },
    ]);
  });

  it("flush writes what is held and closes every window; nothing is written twice", () => {
    windows.add(row("webhook_invalid", "a"));
    windows.add(row("webhook_invalid", "b"));
    windows.flush();
    vi.advanceTimersByTime(MINUTE);
    expect(written.map((r) => [r.reason, r.count])).toEqual([
      ["a", undefined],
      ["b", 1],
    ]);
  });
});
