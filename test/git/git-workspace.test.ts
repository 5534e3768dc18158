import { existsSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { encodeBasicAuth } from "../../src/git/encode-basic-auth.js";
import { GitError } from "../../src/git/git-error.js";
import { GitWorkspace } from "../../src/git/git-workspace.js";
import { freePort } from "../helpers/free-port.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { createOrigin, git } from "./git-fixture.js";
import type { Origin } from "./git-fixture.js";
import { startGitHttpServer } from "./git-http-server.js";

const TOKEN = "ghs_workspaceTestToken0123456789abcdefXYZ";
const BOT = { name: "no-mistakes[bot]", email: "bot@example.com" };
// 1x1 PNG: a file git sees as binary.
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082",
  "hex",
);

afterEach(() => removeTempDirs());

async function workspace(): Promise<GitWorkspace> {
  const ws = new GitWorkspace(join(tempDir("nm-git-ws-"), "runs", "42"));
  await ws.ensure();
  return ws;
}

async function gitError(promise: Promise<unknown>): Promise<GitError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GitError);
  return error as GitError;
}

/** Every file under `dir`, recursively, as raw bytes decoded latin1 (so any byte sequence matches). */
function allFileContents(dir: string): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) out.push(...allFileContents(path));
    else if (stat.isFile()) out.push({ path, text: readFileSync(path).toString("latin1") });
  }
  return out;
}

function expectNoSecretIn(dir: string, secrets: string[]): void {
  const files = allFileContents(dir);
  expect(files.length).toBeGreaterThan(5);
  for (const { path, text } of files) {
    for (const secret of secrets) {
      if (text.includes(secret)) throw new Error(`${secret} found in ${path}`);
    }
  }
}

/** Origin with `main` (base) and `feature` (head = base + one commit). */
function pullRequestOrigin(): { origin: Origin; base: string; head: string } {
  const origin = createOrigin();
  const base = origin.commit({ "README.md": "# demo\n", "src/app.ts": "export const a = 1;\n" });
  origin.push("main");
  const head = origin.commit({ "src/app.ts": "export const a = 2;\nexport const b = 3;\n" });
  origin.push("feature");
  return { origin, base, head };
}

describe("GitWorkspace", () => {
  it("ensure creates the directory and repository once, without identity config", async () => {
    const dir = join(tempDir(), "a", "b");
    const ws = new GitWorkspace(dir);
    await ws.ensure();
    expect(existsSync(join(dir, ".git", "HEAD"))).toBe(true);
    writeFileSync(join(dir, ".git", "marker"), "kept");
    await ws.ensure();
    expect(readFileSync(join(dir, ".git", "marker"), "utf8")).toBe("kept");
    const config = readFileSync(join(dir, ".git", "config"), "utf8");
    expect(config).not.toMatch(/\[user\]|name =|email =|\[remote/);
  });

  it("refuses to run before ensure instead of using an enclosing repository", async () => {
    const { origin } = pullRequestOrigin();
    const ws = new GitWorkspace(join(origin.work, "nested-workspace"));
    const error = await gitError(ws.checkout("HEAD"));
    expect(error.message).toContain("ensure()");
    expect(await gitError(ws.headSha())).toBeInstanceOf(GitError);
    expect(git(origin.work, "status", "--porcelain")).toBe("");
  });

  it("fetches base and head by sha and by ref from a bare repository", async () => {
    const { origin, base, head } = pullRequestOrigin();
    const ws = await workspace();
    await ws.fetch(origin.bare, [`+${base}:refs/nm/base`, `+${head}:refs/nm/head`]);
    expect(await ws.revParse("refs/nm/base")).toBe(base);
    expect(await ws.revParse("refs/nm/head")).toBe(head);

    const byRef = await workspace();
    await byRef.fetch(`file://${origin.bare}`, ["+refs/heads/main:refs/nm/base", "+refs/heads/feature:refs/nm/head"]);
    expect(await byRef.revParse("refs/nm/base")).toBe(base);
    expect(await byRef.revParse("refs/nm/head")).toBe(head);
    expect(await byRef.hasCommit(head)).toBe(true);
    expect(await byRef.hasCommit("0123456789012345678901234567890123456789")).toBe(false);

    const config = readFileSync(join(byRef.dir, ".git", "config"), "utf8");
    expect(config).not.toContain(origin.bare);
    expect(existsSync(join(byRef.dir, ".git", "FETCH_HEAD"))).toBe(false);
  });

  it("fetches shallow with depth", async () => {
    const { origin, base, head } = pullRequestOrigin();
    const ws = await workspace();
    await ws.fetch(`file://${origin.bare}`, ["+refs/heads/feature:refs/nm/head"], { depth: 1 });
    expect(await ws.hasCommit(head)).toBe(true);
    expect(await ws.hasCommit(base)).toBe(false);
  });

  it("checkout moves HEAD and cleans a dirty tree", async () => {
    const { origin, base, head } = pullRequestOrigin();
    const ws = await workspace();
    await ws.fetch(origin.bare, [`+${base}:refs/nm/base`, `+${head}:refs/nm/head`]);
    await ws.checkout(head);
    expect(await ws.headSha()).toBe(head);
    expect(await ws.status()).toEqual([]);

    writeFileSync(join(ws.dir, "src", "app.ts"), "broken by the agent\n");
    writeFileSync(join(ws.dir, "README.md"), "changed\n");
    await mkdir(join(ws.dir, "scratch", "deep"), { recursive: true });
    await writeFile(join(ws.dir, "scratch", "deep", "notes.txt"), "untracked");
    writeFileSync(join(ws.dir, ".gitignore"), "ignored.log\n");
    writeFileSync(join(ws.dir, "ignored.log"), "ignored");
    writeFileSync(join(ws.dir, ".git", "index.lock"), "");
    expect((await ws.status()).length).toBeGreaterThan(0);

    await ws.checkout(head);
    expect(await ws.status()).toEqual([]);
    expect(readFileSync(join(ws.dir, "src", "app.ts"), "utf8")).toBe("export const a = 2;\nexport const b = 3;\n");
    expect(existsSync(join(ws.dir, "scratch"))).toBe(false);
    expect(existsSync(join(ws.dir, "ignored.log"))).toBe(false);

    await ws.checkout(base);
    expect(await ws.headSha()).toBe(base);
    expect(readFileSync(join(ws.dir, "src", "app.ts"), "utf8")).toBe("export const a = 1;\n");
  });

  it("answers ancestry, merge base and notices a force-push", async () => {
    const { origin, base, head } = pullRequestOrigin();
    const ws = await workspace();
    await ws.fetch(origin.bare, ["+refs/heads/main:refs/nm/base", "+refs/heads/feature:refs/nm/head"]);
    expect(await ws.isAncestor(base, head)).toBe(true);
    expect(await ws.isAncestor(head, base)).toBe(false);
    expect(await ws.mergeBase(base, head)).toBe(base);

    // The author rewrites the branch: amend the head commit and force-push.
    git(origin.work, "commit", "-q", "--amend", "-m", "rewritten");
    const rewritten = git(origin.work, "rev-parse", "HEAD");
    origin.push("feature", { force: true });
    await ws.fetch(origin.bare, ["+refs/heads/feature:refs/nm/head"]);
    expect(await ws.revParse("refs/nm/head")).toBe(rewritten);
    expect(await ws.hasCommit(head)).toBe(true);
    expect(await ws.isAncestor(head, rewritten)).toBe(false);
    expect(await ws.isAncestor(base, rewritten)).toBe(true);
    expect(await ws.mergeBase(head, rewritten)).toBe(base);

    await expect(ws.isAncestor("nope", rewritten)).rejects.toMatchObject({ kind: "not-found" });
  });

  it("mergeBase is undefined for unrelated histories", async () => {
    const one = createOrigin();
    const a = one.commit({ "a.txt": "a\n" });
    const two = createOrigin();
    const b = two.commit({ "b.txt": "b\n" });
    const ws = await workspace();
    await ws.fetch(one.work, [`+${a}:refs/nm/a`]);
    await ws.fetch(two.work, [`+${b}:refs/nm/b`]);
    expect(await ws.mergeBase(a, b)).toBeUndefined();
  });

  it("diffs with exclude globs", async () => {
    const origin = createOrigin();
    const base = origin.commit({ "src/a.ts": "one\n", "package-lock.json": "{}\n", "dist/out.js": "x\n" });
    const head = origin.commit({
      "src/a.ts": "one\ntwo\n",
      "package-lock.json": '{"v":2}\n',
      "dist/out.js": "y\n",
      "dist/deep/more.js": "z\n",
    });
    const ws = await workspace();
    await ws.fetch(origin.work, [`+${head}:refs/nm/head`]);

    const full = (await ws.diff(base, head)).text;
    expect(full).toContain("diff --git a/src/a.ts b/src/a.ts");
    expect(full).toContain("diff --git a/package-lock.json b/package-lock.json");
    expect(full).toContain("diff --git a/dist/deep/more.js b/dist/deep/more.js");
    expect(full).toContain("@@ -1 +1,2 @@\n one\n+two\n");

    const filtered = (await ws.diff(base, head, { excludeGlobs: ["package-lock.json", "dist/**"] })).text;
    expect(filtered).toContain("diff --git a/src/a.ts b/src/a.ts");
    expect(filtered).not.toContain("package-lock.json");
    expect(filtered).not.toContain("dist/");
    expect(await ws.diff(head, head)).toEqual({ text: "", leftOut: [] });
  });

  it("lists changed files: added, modified, deleted, renamed and binary", async () => {
    const origin = createOrigin();
    const longText = Array.from({ length: 20 }, (_, i) => `line ${i + 1} of a file that will move`).join("\n") + "\n";
    const base = origin.commit({
      "keep.txt": "a\nb\nc\n",
      "gone.txt": "1\n2\n",
      "old/name.txt": longText,
    });
    const head = origin.commit({
      "keep.txt": "a\nB\nc\nd\n",
      "gone.txt": null,
      "old/name.txt": null,
      "new/name.txt": longText.replace("line 20", "line twenty"),
      "added.txt": "new\n",
      "logo.png": PNG,
    });
    const ws = await workspace();
    await ws.fetch(origin.work, [`+${head}:refs/nm/head`]);
    const files = await ws.changedFiles(base, head);
    const byPath = Object.fromEntries(files.map((file) => [file.path, file]));
    expect(files).toHaveLength(5);
    expect(byPath["keep.txt"]).toEqual({ path: "keep.txt", status: "modified", additions: 2, deletions: 1 });
    expect(byPath["gone.txt"]).toEqual({ path: "gone.txt", status: "deleted", additions: 0, deletions: 2 });
    expect(byPath["new/name.txt"]).toEqual({
      path: "new/name.txt",
      oldPath: "old/name.txt",
      status: "renamed",
      additions: 1,
      deletions: 1,
    });
    expect(byPath["added.txt"]).toEqual({ path: "added.txt", status: "added", additions: 1, deletions: 0 });
    expect(byPath["logo.png"]).toEqual({ path: "logo.png", status: "added", additions: 0, deletions: 0, binary: true });

    const filtered = await ws.changedFiles(base, head, { excludeGlobs: ["*.png"] });
    expect(filtered.map((file) => file.path).sort()).toEqual(["added.txt", "gone.txt", "keep.txt", "new/name.txt"]);
  });

  it("reads files and counts lines at a commit", async () => {
    const origin = createOrigin();
    const sha = origin.commit({
      "a.txt": "one\ntwo\nthree\n",
      "partial.txt": "x\ny",
      "empty.txt": "",
      "dir/f.txt": "f\n",
    });
    const ws = await workspace();
    await ws.fetch(origin.work, [`+${sha}:refs/nm/head`]);
    expect(await ws.readFile(sha, "a.txt")).toBe("one\ntwo\nthree\n");
    expect(await ws.readFile(sha, "missing.txt")).toBeUndefined();
    expect(await ws.readFile(sha, "dir")).toBeUndefined();
    expect(await ws.lineCount(sha, "a.txt")).toBe(3);
    expect(await ws.lineCount(sha, "partial.txt")).toBe(2);
    expect(await ws.lineCount(sha, "empty.txt")).toBe(0);
    expect(await ws.lineCount(sha, "missing.txt")).toBeUndefined();
    await expect(ws.readFile("0123456789012345678901234567890123456789", "a.txt")).rejects.toMatchObject({
      kind: "not-found",
    });
  });

  it("commitAll commits every change as the bot, or nothing when the tree is clean", async () => {
    const { origin, head } = pullRequestOrigin();
    const ws = await workspace();
    await ws.fetch(origin.bare, [`+${head}:refs/nm/head`]);
    await ws.checkout(head);
    expect(await ws.commitAll("nothing", BOT)).toBeUndefined();

    // A hook that would fail the commit must not run.
    await mkdir(join(ws.dir, ".git", "hooks"), { recursive: true });
    writeFileSync(join(ws.dir, ".git", "hooks", "pre-commit"), "#!/bin/sh\nexit 1\n", { mode: 0o755 });
    writeFileSync(join(ws.dir, "src", "app.ts"), "export const a = 3;\n");
    writeFileSync(join(ws.dir, "NEW.md"), "new\n");
    await ws.fetch(origin.bare, ["+refs/heads/main:refs/nm/base"]); // keeps config clean too
    const sha = await ws.commitAll("Fix the thing\n\n#42 stays in the message", BOT);
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    expect(await ws.headSha()).toBe(sha);
    expect(await ws.status()).toEqual([]);
    expect(await ws.isAncestor(head, sha!)).toBe(true);
    const files = await ws.changedFiles(head, sha!);
    expect(files.map((f) => `${f.status} ${f.path}`).sort()).toEqual(["added NEW.md", "modified src/app.ts"]);

    const { stdout } = await import("../../src/git/run-git.js").then(({ runGit }) =>
      runGit(["log", "-1", "--format=%an <%ae>|%cn <%ce>|%B", sha!], { cwd: ws.dir }),
    );
    expect(stdout.trim()).toBe(
      "no-mistakes[bot] <bot@example.com>|no-mistakes[bot] <bot@example.com>|Fix the thing\n\n#42 stays in the message",
    );
    expect(readFileSync(join(ws.dir, ".git", "config"), "utf8")).not.toContain("no-mistakes");
  });

  it("commitWithFiles remakes a commit with files added from blobs alone: no link or .gitignore in the working tree decides anything", async () => {
    const { origin, head } = pullRequestOrigin();
    const ws = await workspace();
    await ws.fetch(origin.bare, [`+${head}:refs/nm/head`]);
    await ws.checkout(head);
    writeFileSync(join(ws.dir, "src", "app.ts"), "export const a = 4;\n");
    const fix = (await ws.commitAll("fix: a", BOT))!;
    // what a fixer could leave: an ignored real link where a test would go
    const outside = tempDir("nm-outside-");
    writeFileSync(join(ws.dir, ".gitignore"), "repro\n");
    symlinkSync(outside, join(ws.dir, "repro"));

    const sha = await ws.commitWithFiles(
      fix,
      [{ path: "repro/last.test.js", content: "test();\n" }],
      "fix: a\n\nwith a test",
      BOT,
    );
    expect(readdirSync(outside)).toEqual([]);
    expect(await ws.headSha()).toBe(sha);
    expect(git(ws.dir, "rev-parse", `${sha}^`)).toBe(head);
    expect(git(ws.dir, "show", `${sha}:repro/last.test.js`)).toBe("test();");
    expect(git(ws.dir, "show", `${sha}:src/app.ts`)).toBe("export const a = 4;");
    expect(git(ws.dir, "ls-tree", "-r", "--name-only", sha).split("\n").sort()).toEqual([
      "README.md",
      "repro/last.test.js",
      "src/app.ts",
    ]);
    expect(git(ws.dir, "log", "-1", "--format=%an <%ae>|%B", sha)).toBe(
      "no-mistakes[bot] <bot@example.com>|fix: a\n\nwith a test",
    );
    await expect(ws.commitWithFiles(fix, [{ path: "-x", content: "" }], "m", BOT)).rejects.toThrow(TypeError);
  });

  it("pushes a fix fast-forward to the bare repository", async () => {
    const { origin, head } = pullRequestOrigin();
    const ws = await workspace();
    await ws.fetch(origin.bare, [`+${head}:refs/nm/head`]);
    await ws.checkout(head);
    writeFileSync(join(ws.dir, "fix.txt"), "fixed\n");
    const sha = (await ws.commitAll("fix", BOT))!;
    await ws.push(origin.bare, sha, "feature");
    expect(origin.remoteSha("feature")).toBe(sha);
    expect(git(origin.bare, "show", `${sha}:fix.txt`)).toBe("fixed");
  });

  it("push after the remote branch moved is rejected, never forced", async () => {
    const { origin, head } = pullRequestOrigin();
    const ws = await workspace();
    await ws.fetch(origin.bare, [`+${head}:refs/nm/head`]);
    await ws.checkout(head);
    writeFileSync(join(ws.dir, "fix.txt"), "fixed\n");
    const sha = (await ws.commitAll("fix", BOT))!;

    const moved = origin.commit({ "author.txt": "the author pushed meanwhile\n" });
    origin.push("feature");

    const error = await gitError(ws.push(origin.bare, sha, "feature"));
    expect(error.kind).toBe("rejected");
    expect(error.subcommand).toBe("push");
    expect(origin.remoteSha("feature")).toBe(moved);
    await expect(ws.push(origin.bare, `+${sha}`, "feature")).rejects.toThrow(TypeError);
    await expect(ws.push(origin.bare, sha, "--force")).rejects.toThrow(TypeError);
  });

  it("fetch of a missing repository or ref is not-found", async () => {
    const { origin } = pullRequestOrigin();
    const ws = await workspace();
    const missingRepo = await gitError(ws.fetch(join(origin.root, "missing.git"), ["+refs/heads/main:refs/nm/head"]));
    expect(missingRepo.kind).toBe("not-found");
    expect(missingRepo.message).toMatch(/^git fetch /);
    const missingRef = await gitError(ws.fetch(origin.bare, ["+refs/heads/nope:refs/nm/head"]));
    expect(missingRef.kind).toBe("not-found");
    const missingSha = await gitError(
      ws.fetch(origin.bare, ["+0123456789012345678901234567890123456789:refs/nm/head"]),
    );
    expect(missingSha.kind).toBe("not-found");
  });

  it("formatPatch produces a patch that applies, binary files included", async () => {
    const origin = createOrigin();
    const base = origin.commit({ "a.txt": "a\n" });
    const head = origin.commit({ "a.txt": "a\nb\n", "img.png": PNG });
    const ws = await workspace();
    await ws.fetch(origin.work, [`+${head}:refs/nm/head`]);
    const patch = await ws.formatPatch(base, head);
    expect(patch).toContain("GIT binary patch");

    const target = createOrigin();
    target.commit({ "a.txt": "a\n" });
    writeFileSync(join(target.root, "fix.patch"), patch);
    git(target.work, "apply", "--index", join(target.root, "fix.patch"));
    expect(readFileSync(join(target.work, "a.txt"), "utf8")).toBe("a\nb\n");
    expect(readFileSync(join(target.work, "img.png"))).toEqual(PNG);
  });

  it("a stray .git/config written between turns cannot redirect a fetch", async () => {
    const { origin, head } = pullRequestOrigin();
    const decoy = createOrigin();
    decoy.commit({ "decoy.txt": "decoy\n" });
    const ws = await workspace();
    writeFileSync(
      join(ws.dir, ".git", "config"),
      `[core]\n\trepositoryformatversion = 0\n\tbare = false\n[url "${decoy.work}"]\n\tinsteadOf = ${origin.bare}\n`,
    );
    await ws.fetch(origin.bare, ["+refs/heads/feature:refs/nm/head"]);
    expect(await ws.revParse("refs/nm/head")).toBe(head);
  });

  describe("over HTTP with a token", () => {
    it("authenticates fetch and push with the token and never stores it", async () => {
      const { origin, base, head } = pullRequestOrigin();
      const server = await startGitHttpServer(origin.root, { token: TOKEN });
      try {
        const url = server.url("origin.git");
        const ws = await workspace();
        await ws.fetch(url, [`+${base}:refs/nm/base`, "+refs/heads/feature:refs/nm/head"], { token: TOKEN });
        expect(await ws.revParse("refs/nm/head")).toBe(head);
        await ws.checkout(head);
        writeFileSync(join(ws.dir, "fix.txt"), "fixed over http\n");
        const sha = (await ws.commitAll("fix over http", BOT))!;
        await ws.push(url, sha, "feature", { token: TOKEN });
        expect(origin.remoteSha("feature")).toBe(sha);
        expect(server.authorizations).toContain(`Basic ${encodeBasicAuth(TOKEN)}`);

        // Refused: the error says auth and does not carry the token.
        const other = "ghs_someOtherToken000000000000000000000000";
        const refused = await gitError(ws.fetch(url, ["+refs/heads/main:refs/nm/base"], { token: other }));
        expect(refused.kind).toBe("auth");
        expect(refused.message).not.toContain(other);
        expect(refused.message).not.toContain(encodeBasicAuth(other));

        const missing = await gitError(
          ws.fetch(server.url("missing.git"), ["+refs/heads/main:refs/nm/x"], { token: TOKEN }),
        );
        expect(missing.kind).toBe("not-found");
        expect(missing.message).not.toContain(TOKEN);

        expectNoSecretIn(join(ws.dir, ".git"), [TOKEN, encodeBasicAuth(TOKEN), other, encodeBasicAuth(other)]);
        expect(readFileSync(join(ws.dir, ".git", "config"), "utf8")).not.toContain("127.0.0.1");
        expect(allFileContents(ws.dir).some((f) => f.text.includes(TOKEN))).toBe(false);
      } finally {
        await server.close();
      }
    });

    it("a fetch from a closed port is network, with the token kept out of the message", async () => {
      const port = await freePort();
      const ws = await workspace();
      const error = await gitError(
        ws.fetch(`http://127.0.0.1:${port}/x.git`, ["+refs/heads/main:refs/nm/head"], { token: TOKEN }),
      );
      expect(error.kind).toBe("network");
      expect(error.message).toContain(`127.0.0.1:${port}`);
      expect(error.message).not.toContain(TOKEN);
      expect(error.message).not.toContain(encodeBasicAuth(TOKEN));
      expect(error.stderr).not.toContain(TOKEN);
      expectNoSecretIn(join(ws.dir, ".git"), [TOKEN, encodeBasicAuth(TOKEN)]);
    });

    it("a push refused by the server (no token) is auth and changes nothing", async () => {
      const { origin, head } = pullRequestOrigin();
      const server = await startGitHttpServer(origin.root, { token: TOKEN });
      try {
        const ws = await workspace();
        await ws.fetch(origin.bare, [`+${head}:refs/nm/head`]);
        await ws.checkout(head);
        writeFileSync(join(ws.dir, "fix.txt"), "x\n");
        const sha = (await ws.commitAll("fix", BOT))!;
        const error = await gitError(ws.push(server.url("origin.git"), sha, "feature"));
        expect(error.kind).toBe("auth");
        expect(origin.remoteSha("feature")).toBe(head);
      } finally {
        await server.close();
      }
    });
  });
});

describe("symbolic links in a pull request", () => {
  it("are checked out as small files holding their target (nothing follows them out), and a commit's new or retargeted links are listed", async () => {
    const origin = createOrigin();
    origin.commit({ "a.txt": "a\n" });
    symlinkSync("/etc/hostname", join(origin.work, "escape"));
    symlinkSync("a.txt", join(origin.work, "inner"));
    const start = origin.commit({}, "links");
    origin.push("main");

    const ws = await workspace();
    await ws.fetch(origin.bare, ["+refs/heads/main:refs/nm/head"]);
    await ws.checkout(start);
    for (const [name, target] of [
      ["escape", "/etc/hostname"],
      ["inner", "a.txt"],
    ] as const) {
      expect(lstatSync(join(ws.dir, name)).isSymbolicLink()).toBe(false);
      expect(readFileSync(join(ws.dir, name), "utf8")).toBe(target);
    }
    expect(await ws.status()).toEqual([]);

    // What a fixer could do: make a real link (a shell's ln -s) and rewrite a link's placeholder file.
    symlinkSync("/app/.env", join(ws.dir, "new-link"));
    writeFileSync(join(ws.dir, "inner"), "../../../outside");
    writeFileSync(join(ws.dir, "a.txt"), "changed\n");
    const sha = (await ws.commitAll("fix", BOT))!;
    expect(await ws.symlinkChanges(start, sha)).toEqual([
      { path: "inner", target: "../../../outside" },
      { path: "new-link", target: "/app/.env" },
    ]);
    // the committed objects are links (mode 120000), exactly as GitHub would carry them
    expect(git(ws.dir, "ls-tree", sha, "inner", "new-link")).toMatch(
      /^120000 blob \S+\tinner\n120000 blob \S+\tnew-link$/,
    );
  });
});

describe("the PR's own .gitattributes", () => {
  it("cannot hide new code from the app's diffs, and real binaries are still binary", async () => {
    const origin = createOrigin();
    const base = origin.commit({ "a.js": "ok();\n", "b.js": "ok();\n", "c.js": "ok();\n" });
    origin.commit({
      "a.js": "ok();\neval(atob(payload));\n",
      "b.js": "ok();\neval(b);\n",
      "c.js": "ok();\neval(c);\n",
      "img.png": PNG,
    });
    // last, so the fixture's own `git add` is not shaped by it
    const head = origin.commit({
      ".gitattributes": "* -diff\n*.js binary\nb.js eol=crlf\n*.js export-ignore\n*.js ident\n",
    });
    const ws = await workspace();
    await ws.fetch(origin.work, [`+${head}:refs/nm/head`]);
    await ws.checkout(head);
    const diff = (await ws.diff(base, head)).text;
    expect(diff).toContain("+eval(atob(payload));");
    expect(diff).toContain("+eval(b);");
    expect(diff).toContain("+eval(c);");
    expect(diff).toMatch(/Binary files \/dev\/null and b\/img.png differ/);
    // checked out as committed: no CRLF, no re-encoding
    expect(readFileSync(join(ws.dir, "b.js"), "utf8")).toBe("ok();\neval(b);\n");
    expect(readFileSync(join(ws.dir, "c.js"), "utf8")).toBe("ok();\neval(c);\n");
  });
});
