import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Run } from "../../../src/db/schema.js";
import { GitWorkspace } from "../../../src/git/git-workspace.js";
import { prepareWorkspace } from "../../../src/pipeline/workspace/prepare-workspace.js";
import { createOrigin, git, type Origin } from "../../git/git-fixture.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";

afterEach(() => removeTempDirs());

const PR = 7;
const lines = (tag: string, changed: Record<number, string> = {}) =>
  Array.from({ length: 30 }, (_, i) => changed[i + 1] ?? `${tag} ${i + 1}`).join("\n") + "\n";

/** main with three files; `feature` changes src/app.ts (line 5) and adds src/feature.ts: the reviewed head. */
function reviewedPr(): { origin: Origin; base: string; last: string } {
  const origin = createOrigin();
  const base = origin.commit(
    { "src/app.ts": lines("app"), "lib/util.ts": lines("util"), "README.md": "# demo\n" },
    "base",
  );
  origin.push("main");
  git(origin.work, "checkout", "-q", "-b", "feature");
  const last = origin.commit({ "src/app.ts": lines("app", { 5: "pr 5" }), "src/feature.ts": lines("feature") }, "pr");
  publish(origin, last);
  return { origin, base, last };
}

/** Main moves on: three new generated files, util.ts and (unless `awayFromPr`) app.ts (line 25, clear of the PR's line 5) changed. */
function baseMovesOn(origin: Origin, awayFromPr = false): string {
  git(origin.work, "checkout", "-q", "main");
  const files: Record<string, string> = { "lib/util.ts": lines("util", { 1: "base 1" }) };
  if (!awayFromPr) files["src/app.ts"] = lines("app", { 25: "base 25" });
  for (let i = 0; i < 3; i++) files[`gen/file${i}.ts`] = lines(`gen${i}`);
  const tip = origin.commit(files, "main moves");
  origin.push("main");
  git(origin.work, "checkout", "-q", "feature");
  return tip;
}

function publish(origin: Origin, sha: string): void {
  git(origin.work, "push", "-q", "--force", origin.bare, `${sha}:refs/heads/feature`);
  git(origin.bare, "update-ref", `refs/pull/${PR}/head`, sha);
}

const runAt = (origin: Origin, headSha: string, lastReviewedSha: string | null) =>
  ({ cloneUrl: origin.bare, baseRef: "main", prNumber: PR, headSha, lastReviewedSha }) as Run;

async function prepared(origin: Origin, headSha: string, last: string | null) {
  const ws = new GitWorkspace(join(tempDir("nm-prep-"), "ws"));
  // the workspace saw `last` at the last review
  await ws.ensure();
  if (last) await ws.fetch(origin.bare, [last]);
  return { ws, prep: await prepareWorkspace(ws, runAt(origin, headSha, last), undefined, { full: false }) };
}

describe("prepareWorkspace: incremental means the PR's own changes", () => {
  it("base merged into the PR: baseMerged from → to, and only the files the PR's own changes touched", async () => {
    const { origin, base, last } = reviewedPr();
    const tip = baseMovesOn(origin);
    git(origin.work, "merge", "-q", "--no-edit", "main");
    const head = origin.commit({ "src/own.ts": lines("own") }, "pr after merge");
    publish(origin, head);

    const { ws, prep } = await prepared(origin, head, last);
    expect(prep).toMatchObject({
      mode: "incremental",
      from: last,
      headSha: head,
      mergeBase: tip,
      baseMerged: { from: base, to: tip, via: "merge" },
    });
    // app.ts: both changed (counts); own.ts: the PR's; util.ts and gen/*: the base's only; feature.ts: unchanged
    expect(prep.paths).toEqual(["src/app.ts", "src/own.ts"]);
    const diff = (await ws.diff(prep.from, head, { paths: prep.paths, excludeGlobs: ["**/*.lock"] })).text;
    expect(diff).toContain("+own 1");
    expect(diff).toContain("+base 25");
    expect(diff).not.toContain("gen/");
    expect(diff).not.toContain("lib/util.ts");
  });

  it("base merged with nothing of the PR's own since: no paths", async () => {
    const { origin, base, last } = reviewedPr();
    const tip = baseMovesOn(origin, true);
    git(origin.work, "merge", "-q", "--no-edit", "main");
    const head = git(origin.work, "rev-parse", "HEAD");
    publish(origin, head);

    const { prep } = await prepared(origin, head, last);
    expect(prep).toMatchObject({
      mode: "incremental",
      from: last,
      baseMerged: { from: base, to: tip, via: "merge" },
      paths: [],
    });
  });

  it("base moved but not merged: plain incremental, as before", async () => {
    const { origin, last } = reviewedPr();
    baseMovesOn(origin);
    const head = origin.commit({ "src/feature.ts": lines("feature", { 3: "again" }) }, "more");
    publish(origin, head);

    const { prep } = await prepared(origin, head, last);
    expect(prep).toEqual({ mode: "incremental", from: last, headSha: head, mergeBase: prep.mergeBase });
    expect(prep.baseMerged).toBeUndefined();
    expect(prep.paths).toBeUndefined();
  });

  it("rebased onto a newer base: incremental via rebase, only files whose PR change differs", async () => {
    const { origin, base, last } = reviewedPr();
    const tip = baseMovesOn(origin);
    git(origin.work, "rebase", "-q", "main");
    const head = git(origin.work, "rev-parse", "HEAD");
    publish(origin, head);

    const { prep } = await prepared(origin, head, last);
    expect(prep).toMatchObject({
      mode: "incremental",
      from: last,
      mergeBase: tip,
      baseMerged: { from: base, to: tip, via: "rebase" },
    });
    // app.ts: both changed; feature.ts: the same change on the new base → left out
    expect(prep.paths).toEqual(["src/app.ts"]);
  });

  it("history rewritten on the same base: the whole PR again", async () => {
    const { origin, base, last } = reviewedPr();
    git(origin.work, "commit", "-q", "--amend", "-m", "pr, amended");
    const head = origin.commit({ "src/feature.ts": lines("feature", { 9: "amended" }) }, "amend");
    publish(origin, head);

    const { prep } = await prepared(origin, head, last);
    expect(prep).toEqual({ mode: "rewritten", from: base, headSha: head, mergeBase: base });
  });

  it("history rewritten onto an older base commit: the whole PR again", async () => {
    const { origin, last } = reviewedPr();
    // the reviewed head was built on a newer base than the rewrite
    git(origin.work, "checkout", "-q", "main");
    const older = git(origin.work, "rev-parse", "HEAD");
    const newer = origin.commit({ "README.md": "# demo 2\n" }, "main 2");
    origin.push("main");
    git(origin.work, "checkout", "-q", "feature");
    git(origin.work, "merge", "-q", "--no-edit", "main");
    const merged = git(origin.work, "rev-parse", "HEAD");
    publish(origin, merged);
    git(origin.work, "reset", "-q", "--hard", last);
    const head = origin.commit({ "src/feature.ts": lines("feature", { 2: "rewritten" }) }, "rewrite");
    publish(origin, head);

    const { prep } = await prepared(origin, head, merged);
    expect(newer).not.toBe(older);
    expect(prep.mode).toBe("rewritten");
  });
});

describe("GitWorkspace.treeChanges", () => {
  it("lists every changed path with both sides' modes and full blob ids, renames as delete + add", async () => {
    const origin = createOrigin();
    const from = origin.commit({ "a.ts": "a\n", "old name.ts": "moved\n", "gone.ts": "x\n" });
    git(origin.work, "mv", "old name.ts", "new name.ts");
    const to = origin.commit({ "a.ts": "b\n", "gone.ts": null, "added.ts": "new\n" });
    origin.push("main");
    const ws = new GitWorkspace(join(tempDir("nm-tree-"), "ws"));
    await ws.ensure();
    await ws.fetch(origin.bare, ["+refs/heads/main:refs/nm/main"]);

    const changes = await ws.treeChanges(from, to);
    const blobOf = (sha: string, path: string) => git(origin.work, "rev-parse", `${sha}:${path}`);
    const none = "0".repeat(40);
    expect(changes.sort((x, y) => x.path.localeCompare(y.path))).toEqual([
      {
        path: "a.ts",
        oldMode: "100644",
        newMode: "100644",
        oldBlob: blobOf(from, "a.ts"),
        newBlob: blobOf(to, "a.ts"),
      },
      { path: "added.ts", oldMode: "000000", newMode: "100644", oldBlob: none, newBlob: blobOf(to, "added.ts") },
      { path: "gone.ts", oldMode: "100644", newMode: "000000", oldBlob: blobOf(from, "gone.ts"), newBlob: none },
      { path: "new name.ts", oldMode: "000000", newMode: "100644", oldBlob: none, newBlob: blobOf(to, "new name.ts") },
      {
        path: "old name.ts",
        oldMode: "100644",
        newMode: "000000",
        oldBlob: blobOf(from, "old name.ts"),
        newBlob: none,
      },
    ]);
    expect(await ws.treeChanges(to, to)).toEqual([]);
  });

  it("diff with paths and excludeGlobs applies both", async () => {
    const origin = createOrigin();
    const from = origin.commit({ "src/a.ts": "a\n", "pkg/yarn.lock": "1\n", "src/b.ts": "b\n" });
    const to = origin.commit({ "src/a.ts": "a2\n", "pkg/yarn.lock": "2\n", "src/b.ts": "b2\n" });
    origin.push("main");
    const ws = new GitWorkspace(join(tempDir("nm-tree-"), "ws"));
    await ws.ensure();
    await ws.fetch(origin.bare, ["+refs/heads/main:refs/nm/main"]);

    const diff = (await ws.diff(from, to, { paths: ["src/a.ts", "pkg/yarn.lock"], excludeGlobs: ["**/yarn.lock"] }))
      .text;
    expect(diff).toContain("+a2");
    expect(diff).not.toContain("yarn.lock");
    expect(diff).not.toContain("src/b.ts");
    // each alone, as before
    expect((await ws.diff(from, to, { paths: ["pkg/yarn.lock"] })).text).toContain("+2");
    expect((await ws.diff(from, to, { excludeGlobs: ["**/yarn.lock"] })).text).toContain("src/b.ts");
  });
});
