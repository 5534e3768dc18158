import { existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { BoundedDiff, DiffLimits } from "./bounded-diff.js";
import { DEFAULT_DIFF_LIMITS } from "./bounded-diff.js";
import type { ChangedFile } from "./changed-file.js";
import type { TreeChange } from "./tree-change.js";
import { findNestedGit } from "./find-nested-git.js";
import { GitError } from "./git-error.js";
import { leftOutFiles } from "./left-out-files.js";
import { outermostFolders } from "./outermost-folders.js";
import { parseChangedFiles } from "./parse-changed-files.js";
import { pathspecGlob } from "./pathspec-glob.js";
import { parseRawDiff } from "./raw-diff-entry.js";
import { unpackTree, withArchiveFile } from "./export-tree.js";
import { runGit } from "./run-git.js";
import type { GitResult, RunGitOptions } from "./run-git.js";

export interface GitWorkspaceOptions {
  /** Time limit of each git command; default 10 minutes. */
  timeoutMs?: number;
  /** What one diff may read (default DEFAULT_DIFF_LIMITS); files past it are left out and named. */
  diffLimits?: DiffLimits;
  /** The most a checked-out tree may take on disk, in bytes (default: no limit). */
  maxCheckoutBytes?: number;
}

/**
 * The only config the workspace keeps. It is rewritten before every command that fetches, pushes,
 * checks out or commits, so nothing written into .git/config in between (by an agent working in
 * the tree, say) can redirect a URL, add a proxy or run a program while a token is on the line.
 * `symlinks = false`: a PR's symbolic links are checked out as small files holding the link's
 * target, so nothing that reads the tree (the agent, or the app) can follow one out of it.
 */
const CONFIG = `[core]
\trepositoryformatversion = 0
\tfilemode = true
\tbare = false
\tlogallrefupdates = true
\tsymlinks = false
`;

/**
 * Written to `.git/info/attributes`, which outranks every `.gitattributes` in the tree: the PR's own
 * attributes cannot change what the app's diffs show (`* -diff` or `binary` would print "Binary files
 * differ" over new code) nor how its files are checked out (eol, ident, working-tree-encoding, filters).
 * `!attr` makes each unspecified, so git's own detection still reports files holding NUL as binary.
 */
const ATTRIBUTES =
  "* !diff !text !eol !crlf !binary !merge !filter !ident !working-tree-encoding !encoding !export-ignore !export-subst !whitespace !delta !conflict-marker-size\n";

/** Left behind by an interrupted merge, cherry-pick, rebase or killed command. */
const LEFTOVER_STATE = [
  "index.lock",
  "MERGE_HEAD",
  "MERGE_MSG",
  "MERGE_MODE",
  "CHERRY_PICK_HEAD",
  "REVERT_HEAD",
  "rebase-merge",
  "rebase-apply",
  "sequencer",
];

/**
 * The bot's git checkout for one pull request run, in a fixed directory. Every command runs with
 * an explicit --git-dir (so it never falls through to an enclosing repository), hooks off and
 * fsmonitor off. Tokens are only ever given per command (see `runGit`).
 */
export class GitWorkspace {
  readonly dir: string;
  private readonly gitDir: string;
  private readonly timeoutMs: number | undefined;
  private readonly diffLimits: DiffLimits;
  private readonly maxCheckoutBytes: number | undefined;
  /** True from `ensure()` creating the repository until the first checkout. */
  private created = false;

  constructor(dir: string, options: GitWorkspaceOptions = {}) {
    this.dir = resolve(dir);
    this.gitDir = join(this.dir, ".git");
    this.timeoutMs = options.timeoutMs;
    this.diffLimits = options.diffLimits ?? DEFAULT_DIFF_LIMITS;
    this.maxCheckoutBytes = options.maxCheckoutBytes;
  }

  /** Creates the directory and an empty repository in it unless one is there. Idempotent. */
  async ensure(): Promise<void> {
    if (!existsSync(this.gitDir)) {
      await mkdir(this.dir, { recursive: true });
      await runGit(["init", "-q", this.dir], { cwd: this.dir, timeoutMs: this.timeoutMs });
      this.created = true;
    }
    await this.resetConfig();
  }

  /**
   * `git fetch --no-tags --force` of `refspecs` (e.g. `+<sha>:refs/nm/head`) from `url`: https,
   * http, a file:// URL or a local path. Neither the URL nor the token is stored in the repository.
   */
  async fetch(
    url: string,
    refspecs: readonly string[],
    options: { token?: string; depth?: number } = {},
  ): Promise<void> {
    assertArgument("url", url);
    if (refspecs.length === 0) throw new TypeError("fetch needs at least one refspec");
    for (const refspec of refspecs) assertArgument("refspec", refspec);
    const depth = options.depth;
    if (depth !== undefined && (!Number.isInteger(depth) || depth < 1)) throw new TypeError(`invalid depth: ${depth}`);
    await this.resetConfig();
    await this.git(
      [
        "fetch",
        "--no-tags",
        "--force",
        "--quiet",
        "--no-write-fetch-head",
        "--no-recurse-submodules",
        ...(depth === undefined ? [] : [`--depth=${depth}`]),
        url,
        ...refspecs,
      ],
      { token: options.token },
    );
  }

  /**
   * Checks out `sha` detached, discarding local changes and untracked (also ignored) files. With
   * `maxCheckoutBytes`, a tree that would take more on disk is refused (GitError `over-limit`) before a
   * file of it is written.
   */
  async checkout(sha: string): Promise<void> {
    assertArgument("sha", sha);
    await this.resetConfig();
    if (this.maxCheckoutBytes !== undefined) {
      const bytes = await this.treeBytes(sha);
      if (bytes > this.maxCheckoutBytes) {
        throw new GitError(
          "over-limit",
          `git checkout refused: the tree at ${sha.slice(0, 12)} would take ${megabytes(bytes)} MB on disk, more than the ${megabytes(this.maxCheckoutBytes)} MB a workspace may (WORKSPACE_MAX_MB)`,
          { subcommand: "checkout", stderr: "" },
        );
      }
    }
    await Promise.all(LEFTOVER_STATE.map((name) => rm(join(this.gitDir, name), { recursive: true, force: true })));
    await this.git(["checkout", "--quiet", "--force", "--detach", sha]);
    // `git clean` walks the whole tree; a repository this instance just created has nothing to clean.
    if (!this.created) await this.git(["clean", "-ffdxq"]);
    this.created = false;
  }

  /** What checking out `sha` would write: every blob's size, plus a block (4 KiB) for each file. */
  async treeBytes(sha: string): Promise<number> {
    assertArgument("commit", sha);
    const { stdout } = await this.git(["ls-tree", "-r", "-l", "-z", "--full-tree", sha]);
    let bytes = 0;
    for (const entry of stdout.split("\0")) {
      // "<mode> <type> <object> <size>\t<path>"; a gitlink's size is "-"
      const size = Number(entry.slice(0, entry.indexOf("\t")).split(/ +/)[3]);
      if (entry !== "") bytes += 4096 + (Number.isFinite(size) ? size : 0);
    }
    return bytes;
  }

  /** Every regular file of commit `sha` with its size in bytes and blob id; symbolic links and submodules are left out. */
  async listFiles(sha: string): Promise<{ path: string; size: number; id: string }[]> {
    assertArgument("commit", sha);
    const { stdout } = await this.git(["ls-tree", "-r", "-l", "-z", "--full-tree", sha]);
    const files: { path: string; size: number; id: string }[] = [];
    for (const entry of stdout.split("\0")) {
      // "<mode> <type> <object> <size>\t<path>"
      const tab = entry.indexOf("\t");
      const [mode, type, id, size] = entry.slice(0, tab).split(/ +/);
      if (type === "blob" && (mode === "100644" || mode === "100755"))
        files.push({ path: entry.slice(tab + 1), size: Number(size), id: id! });
    }
    return files;
  }

  /**
   * The tree of commit `sha` as plain files in `dest`, with no `.git`: a scratch checkout for the
   * repository's own commands. The PR's `.gitattributes` cannot change it (export-ignore, export-subst).
   */
  async exportTree(sha: string, dest: string): Promise<void> {
    assertArgument("commit", sha);
    await withArchiveFile(async (file) => {
      await this.git(["archive", "--format=tar", "-o", file, sha]);
      await unpackTree(file, dest, this.timeoutMs);
    });
  }

  /** The commit `ref` names; throws GitError `not-found` when there is none. */
  async revParse(ref: string): Promise<string> {
    assertArgument("ref", ref);
    const { stdout } = await this.git(["rev-parse", "--verify", `${ref}^{commit}`]);
    return stdout.trim();
  }

  headSha(): Promise<string> {
    return this.revParse("HEAD");
  }

  /** The best common ancestor of `a` and `b`, or undefined when they share no history. */
  async mergeBase(a: string, b: string): Promise<string | undefined> {
    assertArgument("commit", a);
    assertArgument("commit", b);
    const { stdout, exitCode } = await this.git(["merge-base", a, b], { okExitCodes: [1] });
    return exitCode === 0 ? stdout.trim() : undefined;
  }

  /** Whether `a` is `b` or an ancestor of it (false after a force-push rewrote `a` away). */
  async isAncestor(a: string, b: string): Promise<boolean> {
    assertArgument("commit", a);
    assertArgument("commit", b);
    const { exitCode } = await this.git(["merge-base", "--is-ancestor", a, b], { okExitCodes: [1] });
    return exitCode === 0;
  }

  /** Whether the commit is in the local object database. */
  async hasCommit(sha: string): Promise<boolean> {
    assertArgument("sha", sha);
    const { exitCode } = await this.git(["cat-file", "-e", `${sha}^{commit}`], { okExitCodes: [1, 128] });
    return exitCode === 0;
  }

  /**
   * Unified diff from..to; `paths` limits it to those files (literal paths), `excludeGlobs` leaves files
   * out (of those paths too, when both are given); `context` lines around each change (default 3).
   * Blob sizes are read first: a file over the workspace's per-file limit, or past the diff's budget, is
   * left out of the diff (and named in `leftOut`) before git prints a line of it.
   */
  async diff(
    from: string,
    to: string,
    options: {
      excludeGlobs?: readonly string[];
      paths?: readonly string[];
      context?: number;
      /**
       * The PR's renames (old path → new path): a path in `paths` that is a rename's new path is diffed
       * with its old path too, or git would call the file new.
       */
      renamedFrom?: ReadonlyMap<string, string>;
    } = {},
  ): Promise<BoundedDiff> {
    assertArgument("commit", from);
    assertArgument("commit", to);
    const oldPath = options.renamedFrom && new Map([...options.renamedFrom].map(([was, now]) => [now, was]));
    const paths = oldPath
      ? options.paths?.flatMap((p) => (oldPath.has(p) ? [oldPath.get(p)!, p] : [p]))
      : options.paths;
    const included = paths ? paths.map((p) => `:(literal)${p}`) : ["."];
    const specs = [...included, ...(await this.excludedByGlobs(from, to, included, options.excludeGlobs))];
    const common = ["diff", "--no-color", "--no-ext-diff", "--no-textconv", "-M"];
    const raw = parseRawDiff(
      (await this.git([...common, "--raw", "-z", "--no-abbrev", from, to, "--", ...specs])).stdout,
    );
    if (raw.length === 0) return { text: "", leftOut: [] };
    const left = leftOutFiles(raw, await this.blobSizes(raw.flatMap((e) => [e.oldBlob, e.newBlob])), this.diffLimits);
    if (left.length === raw.length) return { text: "", leftOut: left.map((l) => l.file) };
    const excluded = left.flatMap(({ entry }) => [entry.path, ...(entry.oldPath === undefined ? [] : [entry.oldPath])]);
    const { stdout } = await this.git([
      ...common,
      `--unified=${options.context ?? 3}`,
      from,
      to,
      "--",
      ...specs,
      ...excluded.map((p) => `:(exclude,literal)${p}`),
    ]);
    return { text: stdout, leftOut: left.map((l) => l.file) };
  }

  /** The size of each blob in the object database (by id); ids it lacks, and the all-zero id, are absent. */
  async blobSizes(ids: readonly string[]): Promise<Map<string, number>> {
    const wanted = [...new Set(ids.filter((id) => /^[0-9a-f]{40,64}$/.test(id) && !/^0+$/.test(id)))];
    const sizes = new Map<string, number>();
    if (wanted.length === 0) return sizes;
    const { stdout } = await this.git(["cat-file", "--batch-check=%(objectname) %(objecttype) %(objectsize)"], {
      input: `${wanted.join("\n")}\n`,
    });
    for (const line of stdout.split("\n")) {
      const [id, type, size] = line.split(" ");
      if (id && type === "blob" && size) sizes.set(id, Number(size));
    }
    return sizes;
  }

  /** Every file changed from `from` to `to`, with line counts (renames detected). */
  async changedFiles(
    from: string,
    to: string,
    options: { excludeGlobs?: readonly string[] } = {},
  ): Promise<ChangedFile[]> {
    assertArgument("commit", from);
    assertArgument("commit", to);
    const common = ["diff", "--no-color", "--no-ext-diff", "--no-textconv", "-M", "-z"];
    const tail = [from, to, "--", ".", ...(await this.excludedByGlobs(from, to, ["."], options.excludeGlobs))];
    const [numstat, nameStatus] = await Promise.all([
      this.git([...common, "--numstat", ...tail]),
      this.git([...common, "--name-status", ...tail]),
    ]);
    return parseChangedFiles(numstat.stdout, nameStatus.stdout);
  }

  /**
   * Pathspecs that leave out, by name, the paths changed from..to (within the pathspecs `included`; each
   * side of a rename on its own) that one of `globs` matches as git's `:(glob)` would. Git is never
   * given the globs: its own matcher takes time exponential in their wildcards on deep paths, which the
   * PR chooses.
   */
  private async excludedByGlobs(
    from: string,
    to: string,
    included: readonly string[],
    globs: readonly string[] | undefined,
  ): Promise<string[]> {
    if (!globs?.length) return [];
    const matchers = globs.map(pathspecGlob);
    const names = ["diff", "--no-color", "--no-ext-diff", "--name-only", "--no-renames", "-z", from, to];
    const changed = (await this.git([...names, "--", ...included])).stdout.split("\0").filter((p) => p !== "");
    const ignored = changed.filter((path) => matchers.some((matches) => matches(path)));
    return outermostFolders(ignored, changed).map((p) => `:(exclude,literal)${p}`);
  }

  /** Whether `path` is a submodule (a gitlink) in commit `sha`. */
  async isSubmodule(sha: string, path: string): Promise<boolean> {
    assertArgument("sha", sha);
    const { stdout } = await this.git(["ls-tree", sha, "--", `:(literal)${path}`]);
    return stdout.startsWith("160000 commit ");
  }

  /** Files renamed from `from` to `to` (git's rename detection, as GitHub shows a PR): old path → new path. */
  async renames(from: string, to: string): Promise<Map<string, string>> {
    assertArgument("commit", from);
    assertArgument("commit", to);
    const { stdout } = await this.git([
      "diff",
      "--no-color",
      "--no-ext-diff",
      "-M",
      "--diff-filter=R",
      "--name-status",
      "-z",
      from,
      to,
    ]);
    const fields = stdout.split("\0");
    const renames = new Map<string, string>();
    for (let i = 0; i + 2 < fields.length; i += 3) renames.set(fields[i + 1]!, fields[i + 2]!); // "R<score>", old, new
    return renames;
  }

  /** The file's content at `sha`, or undefined when the commit has no such file. */
  async readFile(sha: string, path: string): Promise<string | undefined> {
    assertArgument("sha", sha);
    const result = await this.git(["cat-file", "blob", `${sha}:${path}`], { okExitCodes: [128] });
    if (result.exitCode === 0) return result.stdout;
    if (await this.hasCommit(sha)) return undefined;
    throw new GitError("not-found", `git cat-file: commit ${sha} not found`, {
      subcommand: "cat-file",
      exitCode: result.exitCode,
      stderr: result.stderr.trim(),
    });
  }

  /** Number of lines of the file at `sha` (a last line without a newline counts), or undefined when absent. */
  async lineCount(sha: string, path: string): Promise<number | undefined> {
    const text = await this.readFile(sha, path);
    if (text === undefined) return undefined;
    if (text === "") return 0;
    let lines = 0;
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
    return text.endsWith("\n") ? lines : lines + 1;
  }

  /** `git status --porcelain` lines (untracked files listed one by one). */
  async status(): Promise<string[]> {
    const { stdout } = await this.git(["status", "--porcelain=v1", "--untracked-files=all"]);
    return stdout.split("\n").filter((line) => line !== "");
  }

  /**
   * Stages everything (new, changed and deleted files) and commits it on the detached HEAD as
   * `name <email>`, hooks skipped. Returns the new commit, or undefined when nothing changed.
   */
  /** Commits in from..to (and not in `notIn`'s history), newest first, with their author. */
  async commits(
    from: string,
    to: string,
    options: { notIn?: string } = {},
  ): Promise<{ sha: string; authorName: string; authorEmail: string }[]> {
    if (options.notIn !== undefined) assertArgument("commit", options.notIn);
    const { stdout } = await this.git([
      "log",
      "--no-merges",
      "--format=%H%x00%an%x00%ae",
      `${from}..${to}`,
      ...(options.notIn ? [`^${options.notIn}`] : []),
    ]);
    return stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [sha = "", authorName = "", authorEmail = ""] = line.split("\0");
        return { sha, authorName, authorEmail };
      });
  }

  /** Moves HEAD back to `sha`, keeping every change in the working tree (used when an agent committed on its own). */
  async resetSoft(sha: string): Promise<void> {
    await this.resetConfig();
    await this.git(["reset", "--soft", sha]);
  }

  async commitAll(message: string, author: { name: string; email: string }): Promise<string | undefined> {
    await this.resetConfig();
    await this.git(["add", "--all"]);
    const staged = await this.git(["diff", "--cached", "--quiet", "--no-ext-diff"], { okExitCodes: [1] });
    if (staged.exitCode === 0) return undefined;
    await this.git(
      [
        "-c",
        `user.name=${author.name}`,
        "-c",
        `user.email=${author.email}`,
        "-c",
        "commit.gpgSign=false",
        "commit",
        "--no-verify",
        "--quiet",
        "--cleanup=whitespace",
        "--file=-",
      ],
      { input: message },
    );
    return this.headSha();
  }

  /**
   * The commit `sha` again with `files` added to its tree (regular files): same parents, `message`, the bot as
   * `author`; HEAD moves to it. Made from blobs and the index alone — the working tree is never written, so
   * nothing left in it (a link, a .gitignore) decides where a file goes or whether it is kept.
   */
  async commitWithFiles(
    sha: string,
    files: readonly { path: string; content: string }[],
    message: string,
    author: { name: string; email: string },
  ): Promise<string> {
    assertArgument("commit", sha);
    await this.resetConfig();
    await this.git(["read-tree", sha]);
    for (const file of files) {
      assertArgument("path", file.path);
      const blob = await this.git(["hash-object", "-w", "--no-filters", "--stdin"], { input: file.content });
      await this.git(["update-index", "--add", "--cacheinfo", `100644,${blob.stdout.trim()},${file.path}`]);
    }
    const tree = (await this.git(["write-tree"])).stdout.trim();
    const parents = (await this.git(["show", "-s", "--format=%P", sha])).stdout.trim().split(/\s+/).filter(Boolean);
    const { stdout } = await this.git(
      [
        "-c",
        `user.name=${author.name}`,
        "-c",
        `user.email=${author.email}`,
        "-c",
        "commit.gpgSign=false",
        "commit-tree",
        tree,
        ...parents.flatMap((p) => ["-p", p]),
        "-F",
        "-",
      ],
      { input: message },
    );
    const commit = stdout.trim();
    await this.git(["reset", "--soft", commit]);
    return commit;
  }

  /**
   * Pushes `sha` to `refs/heads/<branch>` at `url`, fast-forward only (never forced). A branch that
   * moved on the remote meanwhile fails with GitError kind `rejected`.
   */
  async push(url: string, sha: string, branch: string, options: { token?: string } = {}): Promise<void> {
    assertArgument("url", url);
    assertArgument("sha", sha);
    assertArgument("branch", branch);
    if (sha.startsWith("+") || sha.includes(":")) throw new TypeError(`invalid sha: ${sha}`);
    if (/[\s:~^?*[\\]|\.\.|@\{|^\/|\/$|\.lock$/.test(branch)) throw new TypeError(`invalid branch name: ${branch}`);
    await this.resetConfig();
    await this.git(["push", "--quiet", "--no-verify", "--no-recurse-submodules", url, `${sha}:refs/heads/${branch}`], {
      token: options.token,
    });
  }

  /** The symbolic links that `to` adds or changes relative to `from`, with their targets. */
  async symlinkChanges(from: string, to: string): Promise<{ path: string; target: string }[]> {
    assertArgument("commit", from);
    assertArgument("commit", to);
    const { stdout } = await this.git(["diff", "--raw", "-z", "--no-renames", "--no-ext-diff", from, to]);
    const fields = stdout.split("\0");
    const links: { path: string; target: string }[] = [];
    for (let i = 0; i + 1 < fields.length; i += 2) {
      // ":<old mode> <new mode> <old sha> <new sha> <status>" then the path
      const [, newMode, , newSha] = fields[i]!.slice(1).split(" ");
      if (newMode !== "120000" || !newSha) continue;
      const blob = await this.git(["cat-file", "blob", newSha]);
      links.push({ path: fields[i + 1]!, target: blob.stdout });
    }
    return links;
  }

  /** Every symbolic link in commit `sha` (repository-relative path → target). */
  async symlinksAt(sha: string): Promise<Map<string, string>> {
    assertArgument("commit", sha);
    const { stdout } = await this.git(["ls-tree", "-r", "-z", "--full-tree", "--no-abbrev", sha]);
    const links = new Map<string, string>();
    for (const entry of stdout.split("\0")) {
      // "<mode> <type> <object>\t<path>"
      const tab = entry.indexOf("\t");
      const [mode, , object] = entry.slice(0, tab).split(" ");
      if (mode !== "120000" || !object) continue;
      const blob = await this.git(["cat-file", "blob", object]);
      links.set(entry.slice(tab + 1), blob.stdout);
    }
    return links;
  }

  /**
   * Entries in the working tree named like a repository directory (`sub/.git`, `.GIT`, …) other than
   * the workspace's own; found without following links. `git add` would read such an entry as a
   * nested repository and record a gitlink to whatever commit it names, so run this before staging.
   */
  nestedRepositories(): Promise<string[]> {
    return findNestedGit(this.dir);
  }

  /**
   * Every path whose content or mode differs from `from` to `to`, with the blob ids and modes of both
   * sides (no rename detection). The two commits need not be related.
   */
  async treeChanges(from: string, to: string): Promise<TreeChange[]> {
    assertArgument("commit", from);
    assertArgument("commit", to);
    const { stdout } = await this.git([
      "diff",
      "--raw",
      "-z",
      "--no-renames",
      "--no-abbrev",
      "--no-ext-diff",
      "--no-textconv",
      from,
      to,
      "--",
    ]);
    const fields = stdout.split("\0");
    const changes: TreeChange[] = [];
    for (let i = 0; i + 1 < fields.length; i += 2) {
      // ":<old mode> <new mode> <old blob> <new blob> <status>" then the path
      const [oldMode = "", newMode = "", oldBlob = "", newBlob = ""] = fields[i]!.slice(1).split(" ");
      changes.push({ path: fields[i + 1]!, oldMode, newMode, oldBlob, newBlob });
    }
    return changes;
  }

  /** A patch from `from` to `to` that `git apply` can replay, binary files included. */
  async formatPatch(from: string, to: string): Promise<string> {
    assertArgument("commit", from);
    assertArgument("commit", to);
    const { stdout } = await this.git([
      "diff",
      "--binary",
      "--full-index",
      "--no-color",
      "--no-ext-diff",
      "--no-textconv",
      from,
      to,
    ]);
    return stdout;
  }

  private git(args: readonly string[], options: Omit<RunGitOptions, "cwd"> = {}): Promise<GitResult> {
    return runGit(
      [
        `--git-dir=${this.gitDir}`,
        `--work-tree=${this.dir}`,
        "-c",
        "core.hooksPath=/dev/null",
        "-c",
        "core.fsmonitor=false",
        ...args,
      ],
      { timeoutMs: this.timeoutMs, ...options, cwd: this.dir },
    );
  }

  private async resetConfig(): Promise<void> {
    if (!existsSync(this.gitDir)) {
      throw new GitError("other", `no repository in ${this.dir}: call ensure() first`, {
        subcommand: "(none)",
        stderr: "",
      });
    }
    await writeFile(join(this.gitDir, "config"), CONFIG);
    await mkdir(join(this.gitDir, "info"), { recursive: true });
    await writeFile(join(this.gitDir, "info", "attributes"), ATTRIBUTES);
  }
}

function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0);
}

/** Rejects what git would read as an option (or a forced refspec where it matters). */
function assertArgument(what: string, value: string): void {
  if (value === "" || value.startsWith("-") || value.includes("\0") || value.includes("\n")) {
    throw new TypeError(`invalid ${what}: ${JSON.stringify(value)}`);
  }
}
