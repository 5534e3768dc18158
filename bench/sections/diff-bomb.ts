/**
 * Bench section `diff-bomb`: the worker's memory when it reads a diff-bomb PR (a few KB pushed, tens of MB
 * of diff) against a normal PR, in the same run. Each read runs in its own process — the workspace's diff
 * and the review's size limit, as a review gathers its input — and reports the process's peak RSS above
 * what it held before the read. Three reads: a normal PR, the bomb with the shipped limits, and the bomb
 * with the diff limits lifted (the app before blob sizes were checked; git's 64 MiB output cap still holds).
 */
import { limitDiff } from "../../src/pipeline/index.js";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_DIFF_LIMITS } from "../../src/git/bounded-diff.js";
import { GitWorkspace } from "../../src/git/git-workspace.js";
import { emitResult, ROOT, SMOKE, tempRoot } from "../lib/common.js";

const MB = 1024 * 1024;

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@example.com", ...args], {
    cwd,
    encoding: "utf8",
  }).trim();
}

/** A repository with a base, a normal PR head (20 files of real-looking edits) and a bomb head. */
function buildRepo(root: string): { repo: string; base: string; normal: string; bomb: string } {
  const repo = join(root, "repo");
  mkdirSync(join(repo, "src"), { recursive: true });
  git(repo, "init", "-q", "-b", "main");
  const source = (n: number, edit: string) =>
    Array.from({ length: 200 }, (_, i) => `export const value${n}_${i} = ${i % 17 === 0 ? edit : i};\n`).join("");
  for (let n = 0; n < 20; n++) writeFileSync(join(repo, "src", `m${n}.ts`), source(n, "0"));
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "base");
  const base = git(repo, "rev-parse", "HEAD");
  for (let n = 0; n < 20; n++) writeFileSync(join(repo, "src", `m${n}.ts`), source(n, "compute()"));
  git(repo, "commit", "-q", "-am", "normal");
  const normal = git(repo, "rev-parse", "HEAD");
  // Two files of 5-byte lines: ~60 KB in the pack, ~34 MB of diff.
  const lines = SMOKE ? MB / 4 : 2 * MB;
  mkdirSync(join(repo, "data"), { recursive: true });
  writeFileSync(join(repo, "data", "a.txt"), "bomb\n".repeat(lines));
  writeFileSync(join(repo, "data", "b.txt"), "mobb\n".repeat(lines));
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "bomb");
  const bomb = git(repo, "rev-parse", "HEAD");
  return { repo, base, normal, bomb };
}

/** In the child: fetch, read the diff as a review does, print peak RSS growth. */
async function readOnce(repo: string, base: string, head: string, limits: "shipped" | "lifted"): Promise<void> {
  const ws = new GitWorkspace(join(tempRoot("diff-bomb-ws"), "ws"), {
    diffLimits:
      limits === "shipped"
        ? DEFAULT_DIFF_LIMITS
        : { maxFileBytes: Number.MAX_SAFE_INTEGER, maxTotalBytes: Number.MAX_SAFE_INTEGER },
  });
  await ws.ensure();
  await ws.fetch(repo, [`+${head}:refs/nm/head`, `+${base}:refs/nm/base`]);
  global.gc?.();
  const before = process.memoryUsage().rss;
  const diff = await ws.diff(base, head);
  const limited = limitDiff(diff.text, 400_000);
  const peak = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(
    `${JSON.stringify({ addedMb: Math.max(0, peak - before) / MB, diffMb: diff.text.length / MB, leftOut: diff.leftOut.length, kept: limited.diff.length })}\n`,
  );
}

function measure(repo: string, base: string, head: string, limits: "shipped" | "lifted") {
  const self = fileURLToPath(import.meta.url);
  const out = spawnSync(
    process.execPath,
    ["--expose-gc", "--import", "tsx", self, "--child", repo, base, head, limits],
    {
      cwd: ROOT,
      encoding: "utf8",
    },
  );
  if (out.status !== 0) throw new Error(`diff-bomb child failed: ${out.stderr}`);
  return JSON.parse(out.stdout.trim().split("\n").pop()!) as { addedMb: number; diffMb: number; leftOut: number };
}

if (process.argv[2] === "--child") {
  const [, , , repo, base, head, limits] = process.argv;
  await readOnce(repo!, base!, head!, limits as "shipped" | "lifted");
} else {
  const { repo, base, normal, bomb } = buildRepo(tempRoot("diff-bomb"));
  git(repo, "gc", "-q");
  const packKb = Number(/size-pack: (\d+)/.exec(git(repo, "count-objects", "-v"))?.[1] ?? 0);
  const normalRead = measure(repo, base, normal, "shipped");
  const bombRead = measure(repo, base, bomb, "shipped");
  const liftedRead = measure(repo, base, bomb, "lifted");
  emitResult({
    packKb,
    normal: normalRead,
    bomb: bombRead,
    lifted: liftedRead,
  });
}
