import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GitWorkspace } from "../../src/git/git-workspace.js";
import { outermostFolders } from "../../src/git/outermost-folders.js";
import { pathspecGlob } from "../../src/git/pathspec-glob.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { createOrigin, git } from "./git-fixture.js";

afterEach(() => removeTempDirs());

const FILES = [
  "dist/a.js",
  "dist/sub/b.js",
  "src/dist/c.js",
  "a.min.js",
  "A.MIN.JS",
  "src/x.min.js",
  "weird[1].txt",
  "weird1.txt",
  "foo/bar/baz.ts",
  "foo/baz.ts",
  "x/foo/bar/y.ts",
  "abc",
  "ab/c",
  "sp ace/q.md",
  ".hidden/h.ts",
  "a*b/c",
  "d/e/f/g.ts",
  "x/y",
  "x/yz",
  "é/ü.txt",
  "b]c",
  "pkg/yarn.lock",
];

const GLOBS = [
  ...["dist", "dist/", "dist/*", "dist/**", "**/dist/**", "**/dist", "*.min.js", "**/*.min.js", "**/*.MIN.JS"],
  ...["weird[1].txt", "weird\\[1\\].txt", "foo/**/baz.ts", "**/foo/bar", "**/foo/bar/**", "a**c", "**baz.ts"],
  ...["*", "**", "ab?", "*/*", "[!a]bc", "[^a]bc", "[[:alpha:]]bc", "[[:digit:]]*", "ab[/]c", "ab?c", "ab*c"],
  ...["d*", "d/*/f", "d/**/g.ts", "**/g.ts", "x/y*", "*/y", "[a-b]*", "[b-a]*", "é/*", "a\\*b/c", "x/", "x", "X"],
  ...[
    "[]]c",
    "b[]]c",
    "[!]]*",
    "sp ace",
    "**/*.lock",
    "[abc",
    "./dist",
    "./src/../dist",
    ".",
    "a/./b*",
    "dist//",
    "abc\\",
    "**/**/g.ts",
    "d/**/**/g.ts",
    "d/e/**",
  ],
];

describe("ignore.paths globs read as git's :(glob) reads them", () => {
  it("leaves out exactly the files git's own exclude pathspec leaves out", () => {
    const origin = createOrigin();
    const base = origin.commit({ "README.md": "x\n" });
    const head = origin.commit(Object.fromEntries(FILES.map((f) => [f, `${f}\n`])));
    const changed = git(origin.work, "diff", "--name-only", "-z", base, head).split("\0").filter(Boolean);
    for (const glob of GLOBS) {
      const kept = git(origin.work, "diff", "--name-only", "-z", base, head, "--", ".", `:(exclude,glob)${glob}`);
      const byGit = changed.filter((p) => !kept.split("\0").includes(p));
      expect([glob, changed.filter(pathspecGlob(glob))]).toEqual([glob, byGit]);
    }
  });

  it("a hostile glob on a long path costs the diff nothing: git never sees the glob", async () => {
    const segment = "a".repeat(250);
    const origin = createOrigin();
    const base = origin.commit({ "README.md": "x\n" });
    const deep = Array.from({ length: 60 }, () => "d").join("/");
    const head = origin.commit({
      [`${segment}/${segment}/f.js`]: "f\n",
      [`${deep}/x.ts`]: "x\n",
      "src/a.ts": "a\n",
    });
    // a git command that would still be matching after 30 s fails the test instead of hanging it
    const ws = new GitWorkspace(join(tempDir("nm-git-ws-"), "runs", "1"), { timeoutMs: 30_000 });
    await ws.ensure();
    await ws.fetch(origin.work, [`+${head}:refs/nm/head`]);
    const hostile = [`**/*${"a*".repeat(12)}b`, "**/**/**/**/**/**/**/**/x.ts"];
    const diff = await ws.diff(base, head, { excludeGlobs: hostile });
    expect(diff.text).toContain(`${segment}/f.js`);
    expect(diff.text).toContain("src/a.ts");
    expect(diff.text).not.toContain("x.ts");
    const files = await ws.changedFiles(base, head, { excludeGlobs: hostile });
    expect(files.map((f) => f.path).sort()).toEqual([`${segment}/${segment}/f.js`, "src/a.ts"]);
  }, 120_000);

  it("leaves out a whole vendored tree by its folder, and files beside kept ones by name", () => {
    const all = [
      "vendor/a/x.go",
      "vendor/a/y.go",
      "vendor/b/z.go",
      "src/a.snap",
      "src/deep/b.snap",
      "src/a.ts",
      "go.sum",
    ];
    const ignored = ["vendor/a/x.go", "vendor/a/y.go", "vendor/b/z.go", "src/a.snap", "src/deep/b.snap", "go.sum"];
    expect(outermostFolders(ignored, all)).toEqual(["vendor", "src/a.snap", "src/deep", "go.sum"]);
  });
});
