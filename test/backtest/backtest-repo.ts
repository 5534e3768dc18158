import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const AUTHOR = ["-c", "user.name=Dev", "-c", "user.email=dev@example.com", "-c", "commit.gpgsign=false"];

/** A file of `n` numbered lines, some replaced. */
export function lines(prefix: string, n: number, overrides: Record<number, string> = {}): string {
  return Array.from({ length: n }, (_, i) => overrides[i + 1] ?? `${prefix} line ${i + 1}`).join("\n") + "\n";
}

/** A team's clone with a history of merged pull requests, as GitHub's merge button leaves it. */
export class BacktestRepo {
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    this.git("init", "-q", "-b", "main");
    this.commit({ "README.md": "# widgets\n" }, "initial");
  }

  /**
   * One PR: a branch off main with `commits` (each a set of files), merged with a merge commit whose
   * message is GitHub's (`Merge pull request #N from dev/…`, then the title). Returns base, head and the merge.
   */
  mergePr(
    number: number,
    title: string,
    commits: Record<string, string>[],
  ): { base: string; head: string; merge: string } {
    const base = this.sha("main");
    const branch = `feature-${number}`;
    this.git("checkout", "-q", "-b", branch, "main");
    for (const [i, files] of commits.entries()) this.commit(files, `${title} (part ${i + 1})`);
    const head = this.sha("HEAD");
    this.git("checkout", "-q", "main");
    this.git(
      ...AUTHOR,
      "merge",
      "-q",
      "--no-ff",
      "-m",
      `Merge pull request #${number} from dev/${branch}`,
      "-m",
      title,
      branch,
    );
    return { base, head, merge: this.sha("main") };
  }

  commit(files: Record<string, string>, message: string): string {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(this.dir, path)), { recursive: true });
      writeFileSync(join(this.dir, path), content);
    }
    this.git("add", "-A");
    this.git(...AUTHOR, "commit", "-q", "-m", message);
    return this.sha("HEAD");
  }

  sha(ref: string): string {
    return this.git("rev-parse", ref).trim();
  }

  git(...args: string[]): string {
    return execFileSync("git", args, {
      cwd: this.dir,
      encoding: "utf8",
      env: { PATH: process.env.PATH, HOME: this.dir, GIT_CONFIG_NOSYSTEM: "1" },
    });
  }
}
