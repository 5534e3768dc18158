import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GitError } from "../../src/git/git-error.js";
import { GitWorkspace } from "../../src/git/git-workspace.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { createOrigin } from "./git-fixture.js";

afterEach(() => removeTempDirs());

const MB = 1024 * 1024;

/** `lines` copies of one short line: megabytes on disk, a few kilobytes in a pack. */
function compressible(lines: number, line = "a"): string {
  return `${line}\n`.repeat(lines);
}

async function workspace(options: ConstructorParameters<typeof GitWorkspace>[1] = {}): Promise<GitWorkspace> {
  const ws = new GitWorkspace(join(tempDir("nm-bounded-"), "ws"), options);
  await ws.ensure();
  return ws;
}

describe("diffs within the workspace's size limits", () => {
  it("leave out a file whose side is over the per-file limit before git prints it, and keep the rest", async () => {
    const origin = createOrigin();
    const base = origin.commit({ "src/a.ts": "one\n" });
    // 10 MB of "a\n" lines: the diff git would print is 15 MB (a "+" on every line).
    const head = origin.commit({ "src/a.ts": "one\ntwo\n", "data/bomb.txt": compressible(5 * MB) });
    const ws = await workspace({ diffLimits: { maxFileBytes: 1 * MB, maxTotalBytes: 4 * MB } });
    await ws.fetch(origin.work, [`+${head}:refs/nm/head`]);

    const diff = await ws.diff(base, head);
    expect(diff.text).toContain("+two");
    expect(diff.text).not.toContain("bomb.txt");
    expect(diff.text.length).toBeLessThan(1000);
    expect(diff.leftOut).toEqual([{ path: "data/bomb.txt", bytes: 10 * MB, why: "file-too-large" }]);
    // the same with paths given, as a placement or verifier diff asks
    const some = await ws.diff(base, head, { paths: ["data/bomb.txt", "src/a.ts"], context: 0 });
    expect(some.text).toContain("+two");
    expect(some.leftOut.map((f) => f.path)).toEqual(["data/bomb.txt"]);
    // only the bomb: nothing is printed at all
    expect(await ws.diff(base, head, { paths: ["data/bomb.txt"] })).toEqual({
      text: "",
      leftOut: [{ path: "data/bomb.txt", bytes: 10 * MB, why: "file-too-large" }],
    });
  });

  it("stop reading once the diff's budget is spent, in git's order, and count both sides of a change", async () => {
    const origin = createOrigin();
    const base = origin.commit({ "b.txt": compressible(200_000, "old") }); // 800,000 bytes
    const head = origin.commit({
      "a.txt": compressible(300_000), // 600,000 bytes
      "b.txt": compressible(200_000, "new"), // 800,000 + 800,000
      "c.txt": "small\n",
    });
    const ws = await workspace({ diffLimits: { maxFileBytes: 1 * MB, maxTotalBytes: 2 * MB } });
    await ws.fetch(origin.work, [`+${head}:refs/nm/head`]);

    const diff = await ws.diff(base, head);
    expect(diff.leftOut).toEqual([{ path: "b.txt", bytes: 1_600_000, why: "diff-too-large" }]);
    expect(diff.text).toContain("diff --git a/a.txt b/a.txt");
    expect(diff.text).toContain("diff --git a/c.txt b/c.txt");
    expect(diff.text).not.toContain("b.txt");
  });

  it("leave out both sides of an oversized rename, so the old path does not show as deleted", async () => {
    const origin = createOrigin();
    const big = compressible(3 * MB);
    const base = origin.commit({ "old/big.txt": big, "keep.ts": "x\n" });
    const head = origin.commit({ "old/big.txt": null, "new/big.txt": `${big}one more\n`, "keep.ts": "y\n" });
    const ws = await workspace({ diffLimits: { maxFileBytes: 1 * MB, maxTotalBytes: 4 * MB } });
    await ws.fetch(origin.work, [`+${head}:refs/nm/head`]);

    const diff = await ws.diff(base, head);
    expect(diff.leftOut.map((f) => f.path)).toEqual(["new/big.txt"]);
    expect(diff.text).not.toContain("big.txt");
    expect(diff.text).toContain("+y");
  });

  it("under the limits, are what git prints, binary files and gitlinks included", async () => {
    const origin = createOrigin();
    const base = origin.commit({ "a.ts": "1\n" });
    const head = origin.commit({ "a.ts": "2\n", "img.bin": Buffer.from([0, 1, 2, 0, 255]) });
    const ws = await workspace();
    await ws.fetch(origin.work, [`+${head}:refs/nm/head`]);
    const diff = await ws.diff(base, head);
    expect(diff.leftOut).toEqual([]);
    expect(diff.text).toContain("Binary files /dev/null and b/img.bin differ");
    expect(diff.text).toContain("-1\n+2");
  });

  it("read blob sizes from the object database, and skip ids it lacks", async () => {
    const origin = createOrigin();
    const base = origin.commit({ "y.txt": "y\n" });
    const head = origin.commit({ "x.txt": "12345\n" });
    const ws = await workspace();
    await ws.fetch(origin.work, [`+${head}:refs/nm/head`]);
    const [entry] = await ws.treeChanges(base, head);
    const sizes = await ws.blobSizes([entry!.newBlob, "0".repeat(40), "1".repeat(40), "not an id"]);
    expect([...sizes]).toEqual([[entry!.newBlob, 6]]);
  });
});

describe("a checkout within WORKSPACE_MAX_MB", () => {
  it("is refused, before a file is written, when the tree would take more on disk; a smaller tree checks out", async () => {
    const origin = createOrigin();
    const small = origin.commit({ "a.txt": "a\n" });
    const big = origin.commit({ "fill/one.txt": compressible(1 * MB), "fill/two.txt": compressible(1 * MB, "b") });
    const ws = await workspace({ maxCheckoutBytes: 3 * MB });
    await ws.fetch(origin.work, [`+${big}:refs/nm/head`]);

    const error = await ws.checkout(big).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GitError);
    expect((error as GitError).kind).toBe("over-limit");
    expect((error as GitError).message).toMatch(
      /4\.0 MB on disk, more than the 3\.0 MB a workspace may \(WORKSPACE_MAX_MB\)/,
    );
    expect(existsSync(join(ws.dir, "fill"))).toBe(false);

    await ws.checkout(small);
    expect(existsSync(join(ws.dir, "a.txt"))).toBe(true);
    expect(await ws.treeBytes(big)).toBe(4 * MB + 2 + 3 * 4096); // two fills and a.txt, a block each
  });
});
