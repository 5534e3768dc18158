import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findNestedGit } from "../../src/git/find-nested-git.js";
import { isDotGitName } from "../../src/git/is-dot-git-name.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";

afterAll(removeTempDirs);

describe("isDotGitName", () => {
  it.each([".git", ".GIT", ".Git. ", ".git...", "git~1", "GIT~1", ".g\u200cit", ".git::$INDEX_ALLOCATION"])(
    "%j names a repository directory",
    (name) => expect(isDotGitName(name)).toBe(true),
  );
  it.each([".gitignore", ".github", "git", ".gitmodules", "x.git", "..", "git~2"])("%j does not", (name) =>
    expect(isDotGitName(name)).toBe(false),
  );
});

describe("findNestedGit", () => {
  it("finds `.git` entries at any depth, file, directory or link, without following links; the workspace's own is skipped", () => {
    const dir = tempDir();
    const outside = tempDir();
    mkdirSync(join(outside, "deep", ".git"), { recursive: true });
    mkdirSync(join(dir, ".git"));
    mkdirSync(join(dir, "a", "b", ".git"), { recursive: true });
    writeFileSync(join(dir, "a", ".GIT"), "gitdir: /elsewhere\n");
    symlinkSync(outside, join(dir, "link-out"));
    symlinkSync("/nowhere", join(dir, "git~1"));
    writeFileSync(join(dir, ".gitignore"), "x\n");
    return expect(findNestedGit(dir)).resolves.toEqual(["a/.GIT", "a/b/.git", "git~1"]);
  });
});
