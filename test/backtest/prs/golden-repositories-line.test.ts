import { describe, expect, it } from "vitest";
import { goldenRepositoriesLine } from "../../../src/backtest/prs/golden-repositories-line.js";
import { parsePrKey } from "../../../src/backtest/prs/pr-key.js";

const golden = (...keys: string[]) => keys.map((k) => ({ key: parsePrKey(k), issues: [] }));
const pr = (repo: string, n: number) => `https://github.com/${repo}/pull/${n}`;
/** The repositories of the benchmark's sentry.json: 6 PRs upstream, 4 of the fork made for the benchmark. */
const SENTRY = golden(
  ...[1, 2, 3, 5].map((n) => pr("ai-code-review-evaluation/sentry-greptile", n)),
  ...[67876, 93824, 77754, 80528, 95633, 80168].map((n) => pr("getsentry/sentry", n)),
);

describe("goldenRepositoriesLine", () => {
  it.each([
    [
      "the upstream's clone",
      ["getsentry/sentry"],
      false,
      "the golden file names PRs of 2 repositories: getsentry/sentry 6, ai-code-review-evaluation/sentry-greptile 4; this run reviews those of getsentry/sentry (the clone's) and skips the 4 of ai-code-review-evaluation/sentry-greptile",
    ],
    [
      "the fork's clone (spelt otherwise)",
      ["AI-Code-Review-Evaluation/sentry-greptile"],
      false,
      "the golden file names PRs of 2 repositories: getsentry/sentry 6, ai-code-review-evaluation/sentry-greptile 4; this run reviews those of ai-code-review-evaluation/sentry-greptile (the clone's) and skips the 6 of getsentry/sentry; a clone of getsentry/sentry reviews more",
    ],
    [
      "a clone of neither",
      ["someone/else"],
      false,
      "the golden file names PRs of 2 repositories: getsentry/sentry 6, ai-code-review-evaluation/sentry-greptile 4; this run reviews none of them (the clone's remotes name someone/else) and skips the 6 of getsentry/sentry and the 4 of ai-code-review-evaluation/sentry-greptile; a clone of getsentry/sentry reviews more",
    ],
    [
      "--accept-other-repos",
      ["getsentry/sentry"],
      true,
      "the golden file names PRs of 2 repositories: getsentry/sentry 6, ai-code-review-evaluation/sentry-greptile 4; all are looked up by number in the clone (--accept-other-repos)",
    ],
    [
      "a clone without a remote",
      [],
      false,
      "the golden file names PRs of 2 repositories: getsentry/sentry 6, ai-code-review-evaluation/sentry-greptile 4",
    ],
  ])("%s", (_what, cloneRepos, accept, line) => {
    expect(goldenRepositoriesLine(SENTRY, cloneRepos, accept)).toBe(line);
  });

  it("says nothing of a file naming one repository, or PRs by number", () => {
    expect(goldenRepositoriesLine(golden(pr("grafana/grafana", 1), pr("Grafana/Grafana", 2), "3"), [], false)).toBe(
      undefined,
    );
  });
});
