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

/** Shaped like the benchmark's sentry.json: 2 PRs of the fork made for it (one flagged by its curators), 3 of the upstream. */
const TWO_REPOSITORIES = join(import.meta.dirname, "fixtures", "two-repositories-golden.json");

describe("backtest of a golden file naming a fork's PRs and the upstream's, some flagged", () => {
  const run = async (origin: string) => {
    const root = tempDir("nm-backtest-two-");
    makeRepo(join(root, "clone")).git("remote", "set-url", "origin", `https://github.com/${origin}.git`);
    const progressed: string[] = [];
    const printed: string[] = [];
    const report = await runBacktest(
      options(join(root, "clone"), join(root, "out"), [{ label: "A", env: fakeEnv(root, "a", REVIEWER_A) }], {
        golden: TWO_REPOSITORIES,
        matching: "location",
      }),
      { env: baseEnv(), print: (t) => printed.push(t), progress: (l) => progressed.push(l) },
    );
    return { report, progressed, printed: printed.join("\n") };
  };

  it("says how many PRs each repository has, which it skips, and that a clone of the upstream reviews more", async () => {
    const { report, progressed, printed } = await run(WIDGETS);
    const line = `the golden file names PRs of 2 repositories: octo-org/widgets 3, ${WIDGETS} 2; this run reviews those of ${WIDGETS} (the clone's) and skips the 3 of octo-org/widgets; a clone of octo-org/widgets reviews more`;
    expect(progressed[0]).toBe(line);
    expect(report.warnings).toContain(line);
    expect(printed).toContain(line);
    // The flagged PR is listed with its flag and not scored: only #2's one real issue counts.
    const flag = `https://github.com/${WIDGETS}/pull/1: "reviewed commit is not in the repo"`;
    expect(report.flagged).toEqual([flag]);
    expect(progressed).toContain(`skipped, flagged in the golden file: ${flag}`);
    expect(printed).toContain(`skipped, flagged in the golden file: ${flag}`);
    expect(report.prs.map((p) => p.id)).toEqual(["#2"]);
    expect(report.configurations[0]!.summary.golden).toBe(1);
  }, 120_000);

  it("with a clone of the upstream, reviews its PRs and skips the fork's, each said once", async () => {
    const { report, progressed } = await run("octo-org/widgets");
    expect(progressed[0]).toBe(
      `the golden file names PRs of 2 repositories: octo-org/widgets 3, ${WIDGETS} 2; this run reviews those of octo-org/widgets (the clone's) and skips the 2 of ${WIDGETS}`,
    );
    expect(report.prs.map((p) => p.id)).toEqual(["#1", "#2", "#3"]);
    expect(report.otherRepository).toHaveLength(2);
    expect(report.flagged).toEqual([]);
  }, 120_000);
});
