import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { git } from "./common.js";

export interface PrSpec {
  number: number;
  /** Files the PR's first commit modifies (files 0..changedFiles-1 of the base). */
  changedFiles: number;
  /** Further one-commit pushes on top, each modifying one file (a few lines). */
  laterPushes: number;
}

export interface BuiltRepo {
  bare: string;
  baseSha: string;
  /** Per PR: [first head, head after push 1, ...]. refs/pull/<n>/head points at the first. */
  heads: Map<number, string[]>;
}

const LINES = 40;

function fileContent(i: number, tag?: string, lines: number[] = []): string {
  let out = "";
  for (let j = 1; j <= LINES; j++) {
    out +=
      lines.includes(j) && tag
        ? `export const v${i}_${j} = "changed in ${tag}"; // revised\n`
        : `export const v${i}_${j} = ${i * 1000 + j}; // line ${j} of module ${i}, padding text\n`;
  }
  return out;
}

const pathOf = (i: number) => `src/m${Math.floor(i / 100)}/file${i}.ts`;

/** A bare repository built with `git fast-import`: a base on main and, per PR, a commit chain. */
export function buildRepo(root: string, baseFiles: number, prs: PrSpec[]): BuiltRepo {
  const bare = join(root, "origin.git");
  git(root, ["init", "-q", "--bare", "-b", "main", bare]);
  const parts: string[] = [];
  let mark = 0;
  let time = 1_700_000_000;
  const data = (s: string) => `data ${Buffer.byteLength(s)}\n${s}\n`;
  const commit = (ref: string, from: number | undefined, message: string, files: [string, string][]): number => {
    const m = ++mark;
    parts.push(
      `commit ${ref}\nmark :${m}\ncommitter Dev <dev@example.com> ${time++} +0000\n${data(message)}${from ? `from :${from}\n` : ""}`,
    );
    for (const [path, content] of files) parts.push(`M 100644 inline ${path}\n${data(content)}`);
    parts.push("\n");
    return m;
  };
  const baseMark = commit(
    "refs/heads/main",
    undefined,
    "base",
    Array.from({ length: baseFiles }, (_, i) => [pathOf(i), fileContent(i)]),
  );
  const prMarks = new Map<number, number[]>();
  for (const pr of prs) {
    const marks: number[] = [];
    const files: [string, string][] = Array.from({ length: pr.changedFiles }, (_, i) => [
      pathOf(i),
      fileContent(i, `pr${pr.number}`, [5, 20, 35]),
    ]);
    let last = commit(`refs/heads/pr-${pr.number}`, baseMark, `PR ${pr.number}`, files);
    marks.push(last);
    for (let k = 1; k <= pr.laterPushes; k++) {
      const i = (k - 1) % Math.max(1, pr.changedFiles);
      last = commit(`refs/heads/pr-${pr.number}`, last, `PR ${pr.number} push ${k}`, [
        [pathOf(i), fileContent(i, `pr${pr.number} push ${k}`, [5, 12, 20, 35])],
      ]);
      marks.push(last);
    }
    prMarks.set(pr.number, marks);
  }
  const marksFile = join(root, "marks");
  git(bare, ["fast-import", "--quiet", `--export-marks=${marksFile}`], parts.join(""));
  const shaOf = new Map<number, string>();
  for (const line of readFileSync(marksFile, "utf8").trim().split("\n")) {
    const [m, sha] = line.split(" ");
    shaOf.set(Number(m!.slice(1)), sha!);
  }
  const heads = new Map<number, string[]>();
  const updates: string[] = [];
  for (const [n, marks] of prMarks) {
    const shas = marks.map((m) => shaOf.get(m)!);
    heads.set(n, shas);
    updates.push(`update refs/pull/${n}/head ${shas[0]}\n`);
  }
  if (updates.length) git(bare, ["update-ref", "--stdin"], updates.join(""));
  // GitHub's repositories are packed; loose objects would make every fetch slower than it should be.
  git(bare, ["repack", "-adq"]);
  return { bare, baseSha: shaOf.get(baseMark)!, heads };
}

/** Points refs/pull/<n>/head at `sha` for each pair (one `git update-ref --stdin`), as a push does. */
export function movePullHeads(bare: string, moves: [number, string][]): void {
  if (moves.length === 0) return;
  git(bare, ["update-ref", "--stdin"], moves.map(([n, sha]) => `update refs/pull/${n}/head ${sha}\n`).join(""));
}

/**
 * Moves refs/pull/<n>/head for the load generator through one long-lived `git update-ref --stdin`, a
 * transaction (start … commit) per call: the driver forks git once, not once per block, so no fork of
 * the driver's own process stalls the deliveries it sends open loop.
 */
export class PullHeadMover {
  private readonly child: ChildProcessWithoutNullStreams;
  private output = "";
  private stderr = "";
  private readonly waiting: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  private exited: Error | undefined;

  constructor(bare: string) {
    this.child = spawn("git", ["update-ref", "--stdin"], {
      cwd: bare,
      env: { PATH: process.env.PATH, HOME: bare, GIT_CONFIG_NOSYSTEM: "1" },
    });
    this.child.stderr.on("data", (d: Buffer) => (this.stderr += d.toString()));
    this.child.stdout.on("data", (d: Buffer) => {
      this.output += d.toString();
      let end: number;
      while ((end = this.output.indexOf("\n")) >= 0) {
        const line = this.output.slice(0, end);
        this.output = this.output.slice(end + 1);
        if (line === "commit: ok") this.waiting.shift()?.resolve();
      }
    });
    this.child.on("exit", (code) => {
      this.exited = new Error(`git update-ref --stdin exited with ${code}: ${this.stderr}`);
      for (const w of this.waiting.splice(0)) w.reject(this.exited);
    });
  }

  /** Resolves once the moves are committed. */
  move(moves: [number, string][]): Promise<void> {
    if (moves.length === 0) return Promise.resolve();
    if (this.exited) return Promise.reject(this.exited);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.child.stdin.write(
        `start\n${moves.map(([n, sha]) => `update refs/pull/${n}/head ${sha}\n`).join("")}commit\n`,
      );
    });
  }

  close(): Promise<void> {
    if (this.exited) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once("exit", () => resolve());
      this.child.stdin.end();
    });
  }
}
