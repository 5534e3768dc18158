import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runBacktest } from "../../src/backtest/run-backtest.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { baseEnv, calls, fakeEnv, makeRepo, options, REVIEWER_A, REVIEWER_B } from "./backtest-world.js";

afterAll(() => removeTempDirs());

/** Every file under `dir`: its inode → its size (a hard-linked file is one inode). */
function files(dir: string, into = new Map<number, number>()): Map<number, number> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files(path, into);
    else if (entry.isFile()) into.set(statSync(path).ino, statSync(path).size);
  }
  return into;
}

/** Each file under `dir` with its size and modification time: what writing to it would change. */
function snapshot(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => [name, statSync(join(dir, name))] as const)
    .filter(([, s]) => s.isFile())
    .map(([name, s]) => `${name} ${s.size} ${s.mtimeMs}`)
    .sort();
}

const git = (dir: string, ...args: string[]) =>
  execFileSync("git", args, { cwd: dir, encoding: "utf8", env: { PATH: process.env.PATH } }).trim();
const nothing = { summary: "Nothing.", findings: [], resolved: [] };
const sum = (sizes: Iterable<number>) => [...sizes].reduce((s, v) => s + v, 0);

describe("backtest workspaces sharing one object store", () => {
  it("gives each configuration × PR workspace the stage's objects hard-linked, not a copy, and never writes to the clone", async () => {
    const root = tempDir("nm-backtest-objects-");
    const clone = join(root, "clone");
    // A sizeable history before the PRs (1.5 MB that does not compress away), and a branch whose name the
    // stage's own (`backtest/base/<n>`) would clash with.
    const repo = makeRepo(clone, (r) => {
      r.commit({ "vendor/blob.txt": randomBytes(1_100_000).toString("base64") }, "vendor");
      r.git("branch", "backtest");
    });
    const out = join(root, "out");
    // What an earlier version left: a stage borrowing the clone's objects by reference.
    mkdirSync(join(out, "stage.git"), { recursive: true });
    git(join(out, "stage.git"), "init", "-q", "--bare");
    writeFileSync(join(out, "stage.git", "objects", "info", "alternates"), `${join(clone, ".git", "objects")}\n`);
    const before = snapshot(join(clone, ".git"));

    const configurations = [
      { label: "A", env: fakeEnv(root, "a", REVIEWER_A) },
      { label: "B", env: fakeEnv(root, "b", REVIEWER_B) },
    ];
    const report = await runBacktest(options(clone, out, configurations, { matching: "location" }), {
      env: baseEnv(),
      print: () => {},
      progress: () => {},
    });
    expect(report.configurations.map((c) => [c.label, c.prs.length, c.failures])).toEqual([
      ["A", 3, []],
      ["B", 3, []],
    ]);
    expect(snapshot(join(clone, ".git"))).toEqual(before);

    const stage = files(join(out, "stage.git", "objects"));
    for (const c of ["A", "B"])
      for (const pr of report.prs) {
        const ws = join(out, "configurations", c, "workspaces", pr.id.slice(1));
        // What the workspace holds of its own: not the history (the stage's files, linked), only what git wrote since.
        const own = [...files(join(ws, ".git", "objects"))].filter(([ino]) => !stage.has(ino)).map(([, size]) => size);
        expect(sum(own)).toBeLessThan(100_000);
        expect(existsSync(join(ws, ".git", "objects", "info", "alternates"))).toBe(false);
        // Whole on its own (as in the agent's sandbox), at the PR's head, with no branch of the clone's.
        expect(git(ws, "rev-parse", "HEAD")).toBe(pr.headSha);
        expect(git(ws, "cat-file", "-t", `${pr.baseSha}:vendor/blob.txt`)).toBe("blob");
        expect(git(ws, "for-each-ref", "--format=%(refname)").split("\n")).toEqual([
          "refs/backtest/0",
          "refs/backtest/1",
          "refs/no-mistakes/base",
          "refs/no-mistakes/head",
        ]);
      }
    // One store of the whole history, owning it (no longer borrowing the clone's).
    expect(sum(stage.values())).toBeGreaterThan(1_000_000);
    expect(existsSync(join(out, "stage.git", "objects", "info", "alternates"))).toBe(false);
    // The reviews saw each PR's own diff.
    for (const name of ["a", "b"]) {
      const prompts = calls(root, name).map((c) => c.prompt);
      expect(prompts[0]).toContain("const next = tokens[i + 1];");
      expect(prompts[1]).toContain("if (!cache.has(k)) cache.set(k, load(k));");
    }

    // A commit the clone made after the stage was: fetched into the stage, reviewed at that commit.
    repo.git("checkout", "-q", "-b", "late", "main");
    const late = repo.commit({ "src/late.ts": "late();\n" }, "Late work");
    repo.git("checkout", "-q", "main");
    writeFileSync(join(root, "pairs.json"), JSON.stringify([{ base: "main", head: "late", pr: 9 }]));
    const again = await runBacktest(
      options(clone, out, [{ label: "A", env: fakeEnv(root, "late", [{ role: "reviewer", answer: nothing }]) }], {
        golden: undefined,
        pairs: join(root, "pairs.json"),
      }),
      { env: baseEnv(), print: () => {}, progress: () => {} },
    );
    expect(again.configurations[0]!.failures).toEqual([]);
    expect(git(join(out, "configurations", "A", "workspaces", "9"), "rev-parse", "HEAD")).toBe(late);
    expect(calls(root, "late")[0]!.prompt).toContain("late();");
  }, 180_000);
});
