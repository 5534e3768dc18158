import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cloneGit } from "../../src/backtest/clone-git.js";
import { findBacktestPrs } from "../../src/backtest/find-backtest-prs.js";
import { parsePrKey } from "../../src/backtest/pr-key.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { BacktestRepo, lines } from "./backtest-repo.js";

afterAll(() => removeTempDirs());

/** A history with every way a PR lands: merge commits (#1, #2), a squash (#3), an open PR's fetched ref (#4). */
function history() {
  const repo = new BacktestRepo(join(tempDir("nm-backtest-find-"), "clone"));
  const one = repo.mergePr(1, "One", [{ "a.ts": lines("a", 5) }, { "a.ts": lines("a", 6) }]);
  const two = repo.mergePr(2, "Two", [{ "b.ts": lines("b", 5) }]);
  const squashBase = repo.sha("main");
  const squash = repo.commit({ "c.ts": lines("c", 5) }, "Three (#3)");
  repo.git("checkout", "-q", "-b", "open", "main");
  const open = repo.commit({ "d.ts": lines("d", 5) }, "Four");
  repo.git("checkout", "-q", "main");
  repo.git("update-ref", "refs/pull/4/head", open);
  return { repo, one, two, squashBase, squash, open };
}

const golden = (...keys: (string | number)[]) => keys.map((k) => ({ key: parsePrKey(k), issues: [] }));

describe("findBacktestPrs", () => {
  it("finds each golden PR in the clone: merge commit, squash commit, fetched PR ref; names the ones it cannot", async () => {
    const h = history();
    const found = await findBacktestPrs(cloneGit(h.repo.dir), {
      golden: golden("https://github.com/o/r/pull/1", 3, "#4", 9),
      branch: "HEAD",
      replay: true,
    });
    expect(found.prs.map((p) => [p.id, p.title, p.baseSha, p.headSha, p.pushes.length])).toEqual([
      ["#1", "One", h.one.base, h.one.head, 2],
      ["#3", "Three", h.squashBase, h.squash, 1],
      ["#4", "Four", h.squash, h.open, 1],
    ]);
    expect(found.missing).toEqual([expect.stringMatching(/^9: no merge or squash commit for #9 on HEAD/)]);
  });

  it("takes the newest merges, and leaves out those the golden file does not name", async () => {
    const h = history();
    const found = await findBacktestPrs(cloneGit(h.repo.dir), {
      merges: true,
      limit: 2,
      golden: golden(1, `${h.two.base}..${h.two.head}`),
      branch: "main",
      replay: false,
    });
    // #3 is a squash (not a merge): the newest two merges are #2 and #1, both named (#2 by its commits).
    expect(found.prs.map((p) => [p.id, p.pushes])).toEqual([
      ["#2", [h.two.head]],
      ["#1", [h.one.head]],
    ]);
    const one = await findBacktestPrs(cloneGit(h.repo.dir), {
      merges: true,
      limit: 2,
      golden: golden(1),
      branch: "main",
      replay: false,
    });
    expect([one.prs.map((p) => p.id), one.withoutGolden]).toEqual([["#1"], 1]);
  });
});
