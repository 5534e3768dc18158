import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import { runGit } from "../git/run-git.js";

/**
 * The backtest's stand-in for GitHub's copy of the repository: a bare repository of its own that borrows
 * the clone's objects (git alternates: nothing copied, nothing written to the clone), holding what the
 * app's workspace fetches — the PR's base as a branch and its head as `refs/pull/<n>/head` — so the
 * pipeline clones and fetches exactly as it does from GitHub.
 */
export class StageRepository {
  readonly dir: string;

  private constructor(dir: string) {
    this.dir = dir;
  }

  /** Creates (or reopens) the stage repository at `dir`, borrowing the objects of the clone at `cloneDir`. */
  static async open(dir: string, cloneDir: string): Promise<StageRepository> {
    const stage = new StageRepository(resolve(dir));
    if (!existsSync(join(stage.dir, "HEAD"))) {
      await mkdir(stage.dir, { recursive: true });
      await runGit(["init", "-q", "--bare", stage.dir], { cwd: stage.dir });
    }
    const common = (await runGit(["rev-parse", "--git-common-dir"], { cwd: cloneDir })).stdout.trim();
    const objects = join(isAbsolute(common) ? common : resolve(cloneDir, common), "objects");
    await writeFile(join(stage.dir, "objects", "info", "alternates"), `${objects}\n`);
    return stage;
  }

  /** The branch the run's base points at: one per PR, so PRs of different bases never share one. */
  static baseBranch(pr: number): string {
    return `backtest/base/${pr}`;
  }

  /** Points the PR's base branch and `refs/pull/<n>/head` at these commits (a push, as GitHub records it). */
  async stage(pr: number, baseSha: string, headSha: string): Promise<void> {
    await runGit(["update-ref", `refs/heads/${StageRepository.baseBranch(pr)}`, baseSha], { cwd: this.dir });
    await runGit(["update-ref", `refs/pull/${pr}/head`, headSha], { cwd: this.dir });
  }
}
