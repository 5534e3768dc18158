import { existsSync } from "node:fs";
import { mkdir, readdir, rm } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { runGit } from "../../git/run-git.js";

/**
 * The backtest's stand-in for GitHub's copy of the repository, and the one object store its workspaces
 * share: a bare repository under the output directory, made from the clone by `git clone --bare
 * --dissociate` (the clone's object files hard-linked where the file system allows, copied where not;
 * never borrowed by reference, so a gc in the clone cannot take objects from under it), holding what the
 * app's workspace fetches: the PR's base as a branch and its head as `refs/pull/<n>/head`. Nothing is
 * written to the clone.
 */
export class StageRepository {
  private constructor(
    readonly dir: string,
    /** The clone's git directory (its common one, for a worktree): where commits the stage lacks are fetched from. */
    private readonly source: string,
  ) {}

  /** Creates (or reopens) the stage repository at `dir` from the clone at `cloneDir`. */
  static async open(dir: string, cloneDir: string): Promise<StageRepository> {
    const common = (await runGit(["rev-parse", "--git-common-dir"], { cwd: cloneDir })).stdout.trim();
    const stage = new StageRepository(resolve(dir), isAbsolute(common) ? common : resolve(cloneDir, common));
    // An earlier layout borrowed the clone's objects (alternates): made anew, owning them.
    if (existsSync(join(stage.dir, "objects", "info", "alternates"))) await rm(stage.dir, { recursive: true });
    if (!existsSync(join(stage.dir, "HEAD"))) {
      await rm(stage.dir, { recursive: true, force: true }); // what a killed clone left
      await mkdir(dirname(stage.dir), { recursive: true });
      const clone = ["clone", "--bare", "--dissociate", "--no-tags", "--quiet", stage.source, stage.dir];
      await runGit(clone, { cwd: dirname(stage.dir) });
      // The clone's branches are not the stage's (one named `backtest` would block `backtest/base/<n>`).
      await replaceRefs(stage.dir, []);
      // No automatic repack: it would write a copy of every hard-linked object.
      await runGit(["config", "gc.auto", "0"], { cwd: stage.dir });
      await runGit(["config", "maintenance.auto", "false"], { cwd: stage.dir });
    }
    return stage;
  }

  /** The branch the run's base points at: one per PR, so PRs of different bases never share one. */
  static baseBranch(pr: number): string {
    return `backtest/base/${pr}`;
  }

  /** Points the PR's base branch and `refs/pull/<n>/head` at these commits (a push, as GitHub records it). */
  async stage(pr: number, baseSha: string, headSha: string): Promise<void> {
    await this.#fetchMissing([baseSha, headSha]);
    await runGit(["update-ref", `refs/heads/${StageRepository.baseBranch(pr)}`, baseSha], { cwd: this.dir });
    await runGit(["update-ref", `refs/pull/${pr}/head`, headSha], { cwd: this.dir });
  }

  /**
   * Makes `dir` a repository with the stage's objects, hard-linked by git's own local clone: on disk a
   * workspace then holds only its tree and refs, yet it is whole on its own, as the agent's sandbox (which
   * sees the workspace alone) needs; objects borrowed through `alternates` would be out of its sight. Of
   * the stage's refs it keeps none, only `refs/backtest/<i>` at `commits` (the PR's: they keep the fetch's
   * connectivity check short), so no branch names history past the PR. Nothing when `dir` is not empty.
   */
  async lend(dir: string, commits: readonly string[]): Promise<void> {
    if (existsSync(dir) && (await readdir(dir)).length > 0) return;
    await mkdir(dir, { recursive: true });
    await runGit(["clone", "--no-checkout", "--no-tags", "--quiet", this.dir, dir], { cwd: dir });
    await replaceRefs(join(dir, ".git"), commits);
  }

  /** Commits the stage lacks (the clone fetched a PR or moved on since it was made), fetched from the clone. */
  async #fetchMissing(commits: readonly string[]): Promise<void> {
    const missing: string[] = [];
    for (const sha of new Set(commits)) {
      const has = await runGit(["cat-file", "-e", `${sha}^{commit}`], { cwd: this.dir, okExitCodes: [1, 128] });
      if (has.exitCode !== 0) missing.push(sha);
    }
    if (missing.length === 0) return;
    // Unadvertised commits (a PR ref the clone fetched, a detached revision) are asked for by id.
    const fetch = ["fetch", "--quiet", "--no-tags", "--no-write-fetch-head", this.source, ...missing];
    await runGit(["-c", "uploadpack.allowAnySHA1InWant=true", ...fetch], { cwd: this.dir });
  }
}

/** Deletes every ref of the repository at `gitDir` and points `refs/backtest/<i>` at each of `commits`. */
async function replaceRefs(gitDir: string, commits: readonly string[]): Promise<void> {
  const git = (args: string[], input?: string) => runGit([`--git-dir=${gitDir}`, ...args], { cwd: gitDir, input });
  const deletes = (await git(["for-each-ref", "--format=delete %(refname)"])).stdout;
  const updates = commits.map((sha, i) => `update refs/backtest/${i} ${sha}\n`).join("");
  await git(["update-ref", "--no-deref", "--stdin"], deletes + updates);
}
