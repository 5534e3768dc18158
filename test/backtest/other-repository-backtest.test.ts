import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runBacktest } from "../../src/backtest/run-backtest.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { baseEnv, fakeEnv, GOLDEN_FIXTURE, makeRepo, options, REVIEWER_A, WIDGETS } from "./backtest-world.js";

afterAll(() => removeTempDirs());

/** The benchmark-shaped golden file with one more PR: the upstream's #4411, whose URL names another repository. */
function mixedGolden(root: string): string {
  const path = join(root, "golden.json");
  const upstream = {
    url: "https://github.com/octo-org/widgets/pull/4411",
    comments: [{ comment: "x", severity: "Low" }],
  };
  writeFileSync(path, JSON.stringify([...JSON.parse(readFileSync(GOLDEN_FIXTURE, "utf8")), upstream]));
  return path;
}

function run(root: string, repoDir: string, extra: Parameters<typeof options>[3] = {}) {
  const progressed: string[] = [];
  const printed: string[] = [];
  const report = runBacktest(
    options(repoDir, join(root, "out"), [{ label: "A", env: fakeEnv(root, "a", REVIEWER_A) }], {
      golden: mixedGolden(root),
      matching: "location",
      ...extra,
    }),
    { env: baseEnv(), print: (t) => printed.push(t), progress: (l) => progressed.push(l) },
  );
  return { report, progressed, printed };
}

describe("backtest of a golden file naming PRs of two repositories", () => {
  it("reviews the clone's own and skips the other's, with a line naming it", async () => {
    const root = tempDir("nm-backtest-other-");
    const repoDir = join(root, "clone");
    makeRepo(repoDir); // origin: WIDGETS
    const { report, progressed, printed } = run(root, repoDir);
    const done = await report;
    const line = `https://github.com/octo-org/widgets/pull/4411: a pull request of octo-org/widgets, and the clone's remotes are ${WIDGETS} (--accept-other-repos looks it up by number all the same)`;
    expect(done.prs.map((p) => p.id)).toEqual(["#1", "#2", "#3"]);
    expect(done.otherRepository).toEqual([line]);
    expect(done.missing).toEqual([]);
    expect(progressed).toContain(`skipped, another repository's: ${line}`);
    expect(printed.join("\n")).toContain(`skipped, another repository's: ${line}`);
  }, 120_000);

  it("refuses to start when every PR is another repository's, naming them", async () => {
    const root = tempDir("nm-backtest-other-");
    const repoDir = join(root, "clone");
    makeRepo(repoDir).git("remote", "set-url", "origin", "https://github.com/someone/else.git");
    await expect(run(root, repoDir).report).rejects.toThrow(
      /^no pull request to backtest:\n {2}https:\/\/github\.com\/ai-code-review-evaluation\/widgets-eval\/pull\/1: a pull request of ai-code-review-evaluation\/widgets-eval, and the clone's remotes are someone\/else/,
    );
  }, 60_000);

  it("warns once when the clone has no remote to tell by, and looks the PRs up by number", async () => {
    const root = tempDir("nm-backtest-other-");
    const repoDir = join(root, "clone");
    makeRepo(repoDir).git("remote", "remove", "origin");
    const { report, progressed } = run(root, repoDir);
    const done = await report;
    expect(done.prs.map((p) => p.id)).toEqual(["#1", "#2", "#3"]);
    expect(done.missing).toEqual([
      expect.stringMatching(/^https:\/\/github\.com\/octo-org\/widgets\/pull\/4411: no merge/),
    ]);
    expect(progressed.filter((l) => l.startsWith("warning: the clone has no remote"))).toEqual([
      `warning: the clone has no remote naming a hosted repository, so whether the PRs of ${WIDGETS}, octo-org/widgets are its own cannot be told: they are looked up by number (add its remote, e.g. \`git remote add origin https://github.com/${WIDGETS}\`, to have another repository's PRs skipped)`,
    ]);
  }, 120_000);
});
