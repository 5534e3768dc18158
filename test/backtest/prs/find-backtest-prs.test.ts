import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cloneGit } from "../../../src/backtest/clone/clone-git.js";
import { cloneRepositories } from "../../../src/backtest/clone/clone-repositories.js";
import { findBacktestPrs } from "../../../src/backtest/prs/find-backtest-prs.js";
import { parsePrKey } from "../../../src/backtest/prs/pr-key.js";
import { repositoryOfUrl } from "../../../src/backtest/clone/repository-of-url.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";
import { BacktestRepo, lines } from "../backtest-repo.js";

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

describe("findBacktestPrs and the golden file's repositories", () => {
  // The public benchmark's way: the clone is a fork (its origin), and the golden file mixes the fork's PR
  // URLs with the upstream's, whose numbers mean other PRs.
  const FORK = "https://github.com/eval-org/widgets-fork/pull";
  const UPSTREAM = "https://github.com/octo-org/widgets/pull";

  it("skips a PR of another repository than the clone's remotes, with a line naming it, instead of scoring the clone's PR of that number", async () => {
    const h = history();
    h.repo.git("remote", "add", "origin", "git@github.com:eval-org/widgets-fork.git");
    const git = cloneGit(h.repo.dir);
    const cloneRepos = await cloneRepositories(git);
    expect(cloneRepos).toEqual(["eval-org/widgets-fork"]);
    const source = {
      golden: golden(`${FORK}/1`, `${UPSTREAM}/2`, `${UPSTREAM}/9`, "https://github.com/EVAL-ORG/Widgets-Fork/pull/3"),
      branch: "HEAD",
      replay: false,
      cloneRepos,
    };
    const found = await findBacktestPrs(git, source);
    expect(found.prs.map((p) => p.id)).toEqual(["#1", "#3"]);
    expect(found.otherRepository).toEqual([
      `${UPSTREAM}/2: a pull request of octo-org/widgets, and the clone's remotes are eval-org/widgets-fork (--accept-other-repos looks it up by number all the same)`,
      `${UPSTREAM}/9: a pull request of octo-org/widgets, and the clone's remotes are eval-org/widgets-fork (--accept-other-repos looks it up by number all the same)`,
    ]);
    expect(found.missing).toEqual([]);

    // Accepted: looked up by number as before (#2 is the clone's merge of that number; #9 is not there).
    const accepted = await findBacktestPrs(git, { ...source, acceptOtherRepos: true });
    expect(accepted.prs.map((p) => p.id)).toEqual(["#1", "#2", "#3"]);
    expect(accepted.otherRepository).toEqual([]);
    expect(accepted.missing).toEqual([expect.stringMatching(/^https:\/\/github\.com\/octo-org\/widgets\/pull\/9: /)]);
  });

  it("gives a PR the golden entry of its own repository when two repositories' PRs share its number", async () => {
    const h = history();
    // No remote: which repository is the clone's cannot be told, but the pairs file says whose PR #1 is.
    const found = await findBacktestPrs(cloneGit(h.repo.dir), {
      pairs: [{ base: h.one.base, head: h.one.head, key: parsePrKey(`${FORK}/1`) }],
      golden: [
        { key: parsePrKey(`${UPSTREAM}/1`), issues: [{ comment: "upstream's", severity: "high" }] },
        { key: parsePrKey(`${FORK}/1`), issues: [{ comment: "the fork's", severity: "high" }] },
      ],
      branch: "HEAD",
      replay: false,
    });
    expect(found.prs.map((p) => [p.id, p.golden?.issues[0]?.comment])).toEqual([["#1", "the fork's"]]);
  });
});

describe("repositoryOfUrl", () => {
  it.each([
    ["https://github.com/o/r.git", "o/r"],
    ["https://github.com/o/r", "o/r"],
    ["https://user:token@github.com/o/r.git/", "o/r"],
    ["git@github.com:o/r.git", "o/r"],
    ["github.com:o/r", "o/r"],
    ["ssh://git@ghe.example.com:2222/acme/api.git", "acme/api"],
    ["git://example.org/o/r.git", "o/r"],
    ["/srv/git/widgets.git", undefined],
    ["../widgets", undefined],
    ["file:///srv/git/widgets.git", undefined],
    ["https://github.com/just-owner", undefined],
  ])("%s → %s", (url, repo) => expect(repositoryOfUrl(url)).toBe(repo));
});
