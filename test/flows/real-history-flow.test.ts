import { describe, expect, it } from "vitest";
import { listFindings } from "../../src/db/findings.js";
import { findRun } from "../../src/db/runs.js";
import { FlowFixture, numbered, REPO_ID } from "../helpers/flow-fixture.js";
import { useFlowDatabase } from "../helpers/use-flow-database.js";

/**
 * Histories shaped like real PRs — a deleted file, a rename with edits in a later push, a pure rename
 * of a binary file, a path with spaces and non-ASCII — reviewed against a GitHub stand-in that decides
 * commentable lines from the whole PR diff with rename detection, as GitHub does. Every turn must post
 * exactly one review with no refused comment, and every finding on a path the PR knows gets an id.
 */

let fx: FlowFixture;
const database = useFlowDatabase(() => fx);

// 1x1 PNG
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082",
  "hex",
).toString("latin1");

const finding = (path: string, line: number | undefined, title: string) => ({
  path,
  ...(line ? { line } : {}),
  severity: "warning",
  action: "ask-user",
  title,
  body: `About ${title}.`,
});

describe("a PR with renames, deletions and binary files", () => {
  it("every turn posts one review GitHub accepts whole; findings on deleted, renamed and binary files are tracked", async () => {
    fx = await FlowFixture.start(database.handle);
    // the base has more than the fixture's default files
    fx.remote.commit(
      {
        "lib/old-name.ts": numbered("lib", 30),
        "docs/guide.md": numbered("guide", 10),
        "dir with space/ünï.ts": numbered("u", 10),
      },
      "more base",
    );
    fx.remote.publish("main");
    fx.remote.git(fx.remote.work, "config", "core.quotePath", "false");
    // push 1: edit app.ts, delete the guide, touch the non-ASCII path
    const head1 = fx.push(
      {
        "src/app.ts": numbered("app", 30, { 11: "for (i = 0; i <= n; i++)" }),
        "dir with space/ünï.ts": numbered("u", 10, { 4: "changed" }),
      },
      "first",
    );
    fx.remote.git(fx.remote.work, "rm", "-q", "docs/guide.md");
    fx.remote.commit({}, "drop the guide");
    const head1b = fx.remote.publish("feature", fx.pr);
    void head1;
    fx.app.scenario([
      {
        role: "reviewer",
        times: 1,
        answer: {
          summary: "First look.",
          findings: [
            finding("src/app.ts", 11, "Loop bound"),
            finding("docs/guide.md", 3, "Guide still referenced"),
            finding("dir with space/ünï.ts", 4, "Odd path"),
            finding("does/not/exist.ts", 2, "Phantom"),
          ],
          resolved: [],
        },
      },
    ]);
    await fx.app.receive("pull_request", fx.prPayload("opened", head1b));
    await fx.app.idle();

    // push 2: rename lib/old-name.ts with an edit at line 20, rename the (binary) logo without changes
    fx.remote.commit({ "assets/logo.png": PNG }, "add a logo");
    fx.remote.git(fx.remote.work, "mv", "lib/old-name.ts", "lib/new-name.ts");
    fx.remote.git(fx.remote.work, "mv", "assets/logo.png", "assets/brand.png");
    fx.remote.commit({ "lib/new-name.ts": numbered("lib", 30, { 20: "edited after the rename" }) }, "rename");
    const head2 = fx.remote.publish("feature", fx.pr);
    fx.app.scenario([
      {
        role: "reviewer",
        answer: {
          summary: "Second look.",
          findings: [
            finding("lib/new-name.ts", 20, "Edited line"), // in the rename's hunk: inline
            // code this push did not change: a later review keeps these warnings as notes, tracked, not posted
            finding("lib/new-name.ts", 5, "Untouched line of a renamed file"),
            finding("lib/old-name.ts", 8, "Reported on the old path"), // moves to new-name.ts:8
            finding("assets/brand.png", undefined, "Logo renamed"), // new in this push (added, then renamed), binary: body
          ],
          resolved: [],
        },
      },
    ]);
    await fx.app.receive("pull_request", fx.prPayload("synchronize", head2, { before: head1b }));
    await fx.app.idle();

    // one review per turn, each accepted whole: no 422, no comment posted on its own
    const reviewPosts = fx.github.sent("POST", `/pulls/${fx.pr}/reviews`);
    expect(reviewPosts).toHaveLength(2);
    expect(fx.github.reviews).toHaveLength(2);
    expect(fx.github.sent("POST", `/pulls/${fx.pr}/comments`)).toHaveLength(0);
    expect(reviewPosts[0]!.body.comments.map((c: any) => [c.path, c.line])).toEqual([
      ["src/app.ts", 11],
      ["dir with space/ünï.ts", 4],
    ]);
    expect(reviewPosts[1]!.body.comments.map((c: any) => [c.path, c.line])).toEqual([["lib/new-name.ts", 20]]);

    // every finding on a path the PR knows has its id; only the phantom path is dropped
    const run = (await findRun(database.handle.db, REPO_ID, fx.pr))!;
    const ledger = await listFindings(database.handle.db, run.id);
    expect(ledger.map((f) => [f.number, f.path, f.line, f.status])).toEqual([
      [1, "src/app.ts", 11, "open"],
      [2, "docs/guide.md", 3, "open"],
      [3, "dir with space/ünï.ts", 4, "open"],
      [4, "lib/new-name.ts", 20, "open"],
      [5, "lib/new-name.ts", 5, "note"],
      [6, "lib/new-name.ts", 8, "note"],
      [7, "assets/brand.png", null, "open"],
    ]);
    expect(reviewPosts[0]!.body.body).toContain("NM-2");
    expect(reviewPosts[0]!.body.body).toContain("does/not/exist.ts");
    expect(reviewPosts[1]!.body.body).toContain("NM-7");
    expect(reviewPosts[1]!.body.body).toContain("2 findings on code unchanged since the last review");
    // the summary counts the open ones and lists the notes with their ids
    expect(fx.summary()).toContain("**5 open** · 0 resolved · 0 dismissed · 2 notes");
    for (const id of ["NM-5", "NM-6"]) expect(fx.summary()).toContain(`(${id})`);
  });

  it("CRLF lines, a file without a final newline, a lockfile, a submodule bump, then a force-push after a rebase: one accepted review per turn, everything tracked", async () => {
    // the lockfile is reviewed here (by default ignore.paths leaves lockfiles out): its lines take comments
    fx = await FlowFixture.start(database.handle, { configYaml: "ignore:\n  paths: []\n" });
    const crlf = (n: number, change: Record<number, string> = {}) =>
      Array.from({ length: n }, (_, i) => `${change[i + 1] ?? `win ${i + 1}`}\r\n`).join("");
    fx.remote.commit(
      { "win.txt": crlf(12), "nonl.txt": "a\nb\nc", "package-lock.json": '{\n  "lockfileVersion": 3\n}\n' },
      "more base",
    );
    const mainSha = fx.remote.publish("main");
    fx.remote.checkout("feature", true);
    fx.remote.commit(
      {
        "win.txt": crlf(12, { 5: "changed 5" }),
        "nonl.txt": "a\nb\nC",
        "package-lock.json": '{\n  "lockfileVersion": 3,\n  "packages": {}\n}\n',
      },
      "edits",
    );
    fx.remote.git(fx.remote.work, "update-index", "--add", "--cacheinfo", `160000,${mainSha},vendor/lib`);
    fx.remote.git(
      fx.remote.work,
      "-c",
      "user.name=Dev",
      "-c",
      "user.email=dev@example.com",
      "commit",
      "-q",
      "-m",
      "bump the submodule",
    );
    const head1 = fx.remote.publish("feature", fx.pr);
    const answer = {
      summary: "Looked.",
      findings: [
        finding("win.txt", 5, "CRLF line"),
        finding("nonl.txt", 3, "Last line without newline"),
        finding("package-lock.json", 3, "Lockfile entry"),
        finding("vendor/lib", 1, "Submodule bump"),
      ],
      resolved: [],
    };
    fx.app.scenario([{ role: "reviewer", answer }]);
    await fx.app.receive("pull_request", fx.prPayload("opened", head1));
    await fx.app.idle();

    // main moves on; the author rebases the PR onto it and force-pushes
    fx.remote.checkout("main");
    fx.remote.commit({ "src/other.ts": numbered("other", 5) }, "main moves");
    fx.remote.publish("main");
    fx.remote.checkout("feature");
    fx.remote.git(fx.remote.work, "-c", "user.name=Dev", "-c", "user.email=dev@example.com", "rebase", "-q", "main");
    const head2 = fx.remote.publish("feature", fx.pr);
    await fx.app.receive("pull_request", fx.prPayload("synchronize", head2, { before: head1 }));
    await fx.app.idle();

    const posts = fx.github.sent("POST", `/pulls/${fx.pr}/reviews`);
    expect(posts.map((p) => p.body.event)).toEqual(["COMMENT", "COMMENT"]); // one per turn, each accepted whole
    expect(fx.github.sent("POST", `/pulls/${fx.pr}/comments`)).toHaveLength(0);
    expect(posts[0]!.body.comments.map((c: any) => [c.path, c.line])).toEqual([
      ["win.txt", 5],
      ["nonl.txt", 3],
      ["package-lock.json", 3],
    ]);
    expect(posts[0]!.body.body).toContain("NM-4"); // the submodule finding, in the body
    expect(posts[1]!.body.comments).toEqual([]); // the rebase brought nothing new of the PR's own: nothing reposted
    const run = (await findRun(database.handle.db, REPO_ID, fx.pr))!;
    expect((await listFindings(database.handle.db, run.id)).map((f) => [f.number, f.path, f.line])).toEqual([
      [1, "win.txt", 5],
      [2, "nonl.txt", 3],
      [3, "package-lock.json", 3],
      [4, "vendor/lib", null],
    ]);
  });
});
