import { describe, expect, it } from "vitest";
import { listRefusals } from "../../src/db/refusals.js";
import { FlowFixture, LOOP_BUG_APP, bugAndNitReview, numbered } from "../helpers/flow-fixture.js";
import { GitRemote } from "../helpers/git-remote.js";
import { tempDir } from "../helpers/temp-dir.js";
import { useFlowDatabase } from "../helpers/use-flow-database.js";

let fx: FlowFixture;
const database = useFlowDatabase(() => fx);

const WRITER = { login: "maintainer" };
const FIXED_APP = numbered("app", 30, { 11: "for (i = 0; i < n; i++)" });
const REVIEW = bugAndNitReview("auto-fix");

/** The PR (its files on top of the base) reviewed with NM-1 and NM-2 open; returns its head. */
async function openReviewed(files: Parameters<FlowFixture["open"]>[0] = {}): Promise<string> {
  fx = await FlowFixture.start(database.handle, { permissions: { maintainer: "write" } });
  return fx.open({ "src/app.ts": LOOP_BUG_APP, ...files }, [REVIEW], "first");
}

/** Runs `/no-mistakes fix` with a fixer that leaves `edits` (with the loop fix); returns the reply. */
async function fixLeaving(edits: unknown[], extra: Record<string, unknown> = {}): Promise<string> {
  fx.app.scenario([
    {
      role: "fixer",
      edits: [{ path: "src/app.ts", content: FIXED_APP }, ...edits],
      answer: { fixed: ["NM-1"], ...extra },
    },
    { role: "reviewer", answer: { summary: "ok", findings: [], resolved: [] } },
  ]);
  await fx.comment("/no-mistakes fix", WRITER);
  return fx.replies().at(-1)!;
}

/** What the operator page lists as refused in this PR: [kind, repository, actor, reason]. */
async function refused(): Promise<[string, string | null, string | null, string][]> {
  return (await listRefusals(database.handle.db))
    .filter((r) => r.prNumber === fx.pr)
    .map((r) => [r.kind, r.repositoryFullName, r.actor, r.reason]);
}

/** Mode, type and object of every entry of a commit's tree in the bare remote. */
function treeOf(sha: string): string {
  return fx.remote.git(fx.remote.bare, "ls-tree", "-r", sha);
}

describe("what the fixer leaves is data", () => {
  it("a `gitdir:` file pointing at another workspace is refused before git reads it: that workspace's HEAD is never pushed as a gitlink", async () => {
    const other = new GitRemote(tempDir());
    const otherHead = other.commit({ "private.txt": "another customer's code\n" }, "private");
    const head = await openReviewed();

    const reply = await fixLeaving([{ path: "vendor/lib/.git", content: `gitdir: ${other.work}/.git\n` }]);

    const pushed = fx.remote.remoteSha("refs/heads/feature");
    expect(treeOf(pushed)).not.toContain(otherHead);
    expect(pushed).toBe(head);
    expect(reply).toContain("The fix was not pushed: it leaves a `.git` file or directory inside the repository");
    expect(reply).toContain("- `vendor/lib/.git`");
    expect((await fx.findings()).map((f) => f.status)).toEqual(["open", "open"]);
  });

  it("a nested repository directory (`sub/.git/`, also spelled `.GIT`) is refused, nothing pushed", async () => {
    const head = await openReviewed();
    const sha = "1".repeat(40);
    const reply = await fixLeaving([
      { path: "sub/.git/HEAD", content: `${sha}\n` },
      { path: "sub/.git/objects/info/.keep", content: "" },
      { path: "sub/.git/refs/heads/.keep", content: "" },
      { path: "deep/er/.GIT", content: "gitdir: /elsewhere\n" },
    ]);
    const pushed = fx.remote.remoteSha("refs/heads/feature");
    expect(treeOf(pushed)).not.toContain("160000");
    expect(pushed).toBe(head);
    expect(reply).toContain("it leaves a `.git` file or directory inside the repository");
    expect(reply).toContain("- `deep/er/.GIT`\n- `sub/.git`");
    expect(await refused()).toEqual([
      [
        "nested_repository",
        "octo-org/widgets",
        "fixer",
        "fix not committed: the fixer left a nested repository (.git) at deep/er/.GIT, sub/.git (asked by maintainer)",
      ],
    ]);
  });

  it("a gitlink staged in the index (an empty directory in the tree) is refused, nothing pushed", async () => {
    const head = await openReviewed();
    const reply = await fixLeaving([{ path: "modules/evil", gitlink: "2".repeat(40) }]);
    const pushed = fx.remote.remoteSha("refs/heads/feature");
    expect(treeOf(pushed)).not.toContain("160000");
    expect(pushed).toBe(head);
    expect(reply).toContain("The fix was not pushed: it adds or changes a submodule entry (a gitlink)");
    expect(reply).toContain("- `modules/evil`");
    expect(await refused()).toEqual([
      [
        "gitlink",
        "octo-org/widgets",
        "fixer",
        expect.stringMatching(
          /^fix [0-9a-f]{7} not pushed: it adds or changes a gitlink \(submodule entry\) at modules\/evil \(asked by maintainer\)$/,
        ),
      ],
    ]);
  });

  it("a chain of links that leaves the tree (`a/b -> ..`, `c -> a/b/../outside`) is refused, though each target reads as inside", async () => {
    const head = await openReviewed();
    const reply = await fixLeaving([
      { path: "a/b", symlink: ".." },
      { path: "c", symlink: "a/b/../outside" },
    ]);
    expect(fx.remote.remoteSha("refs/heads/feature")).toBe(head);
    expect(reply).toContain(
      "The fix was not pushed: it adds or retargets a symbolic link that points outside the repository",
    );
    expect(reply).toContain("- `c` → `a/b/../outside`");
    expect(reply).not.toContain("`a/b` →");
    expect(await refused()).toEqual([
      [
        "escaping_symlink",
        "octo-org/widgets",
        "fixer",
        expect.stringMatching(
          /^fix [0-9a-f]{7} not pushed: symbolic links that lead out of the repository at c \(asked by maintainer\)$/,
        ),
      ],
    ]);
  });

  it("a chain through a link the PR already has is followed too, and a cycle is refused", async () => {
    const head = await openReviewed({ "docs/up": { symlink: ".." } });
    const reply = await fixLeaving([
      { path: "docs/env", symlink: "up/../app/.env" },
      { path: "loop/x", symlink: "y" },
      { path: "loop/y", symlink: "x" },
    ]);
    expect(fx.remote.remoteSha("refs/heads/feature")).toBe(head);
    expect(reply).toContain("- `docs/env` → `up/../app/.env`");
    expect(reply).toContain("- `loop/x` → `y` (a cycle of links)");
    expect(reply).toContain("- `loop/y` → `x` (a cycle of links)");
  });

  it("the agent's words in the commit message close nothing, add no trailer and mention no one", async () => {
    const head = await openReviewed();
    const summary = [
      "Used < for the bound. Closes #1, fixes octo-org/other#2 and resolves https://github.com/octo-org/widgets/issues/3.",
      "Thanks @someone and @octo-org/security.",
      "",
      "Co-authored-by: X <x@y>",
      "Signed-off-by: Mallory <mallory@evil.example>",
    ].join("\n");
    await fixLeaving([], { summary });

    const pushed = fx.remote.remoteSha("refs/heads/feature");
    expect(pushed).not.toBe(head);
    const message = fx.remote.git(fx.remote.bare, "log", "-1", "--format=%B", pushed);
    expect(message).toContain(
      "Used < for the bound. Closes issue 1, fixes octo-org/other issue 2 and resolves octo-org/widgets issue 3.",
    );
    expect(message).toContain("Thanks someone and octo-org/security.");
    expect(message).toContain("Co-authored-by - X <x@y>\nSigned-off-by - Mallory <mallory@evil.example>");
    expect(message).not.toMatch(/#\d|@(someone|octo-org)|^[\w-]+:/m);
    expect(fx.remote.git(fx.remote.bare, "log", "-1", "--format=%(trailers)", pushed).trim()).toBe("");
  });

  it("a normal fix with an in-tree relative symbolic link and a plain message is pushed", async () => {
    const head = await openReviewed({ "docs/v1.md": "v1\n" });
    const reply = await fixLeaving(
      [
        { path: "docs/current", symlink: "v1.md" },
        { path: "docs/latest", symlink: "./current" },
      ],
      {
        summary: "Used < for the loop bound, as NM-1 asks.",
      },
    );
    const pushed = fx.remote.remoteSha("refs/heads/feature");
    expect(pushed).not.toBe(head);
    expect(fx.remote.git(fx.remote.bare, "rev-parse", `${pushed}^`).trim()).toBe(head);
    expect(treeOf(pushed)).toMatch(/^120000 blob \w+\tdocs\/current$/m);
    expect(fx.remote.git(fx.remote.bare, "cat-file", "blob", `${pushed}:docs/latest`)).toBe("./current");
    expect(fx.remote.git(fx.remote.bare, "log", "-1", "--format=%B", pushed)).toContain(
      "Used < for the loop bound, as NM-1 asks.",
    );
    expect(reply).toContain("Pushed");
  });
});
