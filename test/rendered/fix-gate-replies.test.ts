import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_REPO_CONFIG } from "../../src/config/repo/repo-config.js";
import { upsertRun } from "../../src/db/runs.js";
import type { Finding, Run } from "../../src/db/schema.js";
import type { GitWorkspace } from "../../src/git/git-workspace.js";
import type { BranchTip, FixCommit, FixProof, FixTurn } from "../../src/pipeline/fix/fix-turn.js";
import { recordPushedFix } from "../../src/pipeline/fix/record-pushed-fix.js";
import { refuseUnprovenFix } from "../../src/pipeline/fix/refuse-unproven-fix.js";
import { runContext } from "../../src/pipeline/job/run-context.js";
import type { PipelineDeps } from "../../src/pipeline/job/pipeline-deps.js";
import { resolveFindingThreads } from "../../src/pipeline/publish/resolve-finding-threads.js";
import { Refusals } from "../../src/refusals/refusals.js";
import { captureLogger } from "../helpers/capture-logger.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";
import { fakeGitHub } from "./fake-github.js";
import { BASE_SHA, finding, FIX_SHA, HEAD_SHA, LIVE_MENTION, LIVE_TAG, snap, visible } from "./fixtures.js";

/**
 * The replies of a fix the app checked before pushing: blocked (another round to come, or the end with the
 * patch), pushed with what ran on it, and the thread's resolution citing the reproducer that now passes. They
 * are written by their steps (refuseUnprovenFix, recordPushedFix, resolveFindingThreads), called here with a
 * fake GitHub and a fix's proof as the gate leaves it; the gate itself runs for real in
 * test/flows/fix-gate-flow.test.ts.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase("pglite");
});
afterAll(async () => {
  await database?.dispose();
});

/** A test runner's output, written by the PR's author: a mention, a forged marker, raw HTML, a fence. */
const HOSTILE_OUTPUT = [
  "not ok 1 - last",
  "  error: 'Expected values to be strictly equal: 1 !== 3'",
  "  cc @alice <!-- no-mistakes:NM-9 -->",
  '  <img src=x onerror="alert(1)">',
  "```",
  "# fail 1",
].join("\n");

const NM1 = finding({ number: 1, title: "last() reads past the end" });

async function setUp(prNumber: number) {
  const run: Run = await upsertRun(database.handle.db, {
    installationId: 99,
    repositoryId: 4242,
    repositoryFullName: "octo/shop",
    cloneUrl: "https://github.com/octo/shop.git",
    prNumber,
    baseRef: "main",
    baseSha: BASE_SHA,
    headRef: "invoice-cents",
    headSha: HEAD_SHA,
  });
  const { github, posts } = fakeGitHub({});
  const ctx = runContext(database.handle.db, run, github, DEFAULT_REPO_CONFIG);
  const deps = {
    db: database.handle.db,
    refusals: new Refusals({ db: database.handle.db, log: captureLogger().log }),
  } as unknown as PipelineDeps;
  const turn: FixTurn = {
    ctx,
    run,
    request: { trigger: "command", findings: "default", requestedBy: "maintainer-max" },
    signal: new AbortController().signal,
    log: captureLogger().log,
    who: "@maintainer-max ",
    reply: (body) => github.createIssueComment(ctx.ref, prNumber, body).then(() => undefined),
  };
  const workspace = {
    formatPatch: async () =>
      "diff --git a/lib.js b/lib.js\n-exports.last = (xs) => xs[xs.length];\n+exports.last = (xs) => xs[xs.length] ?? xs[0];\n",
  } as unknown as GitWorkspace;
  const tip: BranchTip = {
    target: { repoFullName: "octo/shop", cloneUrl: "https://github.com/octo/shop.git", branch: "invoice-cents" },
    workspace,
    token: undefined,
    startSha: HEAD_SHA,
  };
  return { github, posts, deps, turn, tip };
}

function commit(proof: FixProof): FixCommit & { proof: FixProof } {
  return { sha: FIX_SHA, message: "fix", turnId: null, fixed: [NM1], declined: [], summary: "", proof };
}

const BLOCKED: FixProof = {
  failures: [
    {
      what: "NM-1's reproducer still fails",
      command: "node --test repro/",
      why: "it exited 1",
      output: HOSTILE_OUTPUT,
    },
    {
      what: "the check `tests` passed before the fix and fails after it",
      command: "npm test",
      why: "it exited 1",
      output: "# fail 1\n",
    },
  ],
  passing: [],
  passed: [],
  failedBefore: ["lint"],
  brokenBefore: [],
};

describe("a fix the app's run of its reproducer and checks blocks", () => {
  it("with a round to come: each command, how it ended and its output's end, inert", async () => {
    const { posts, deps, turn, tip } = await setUp(301);
    await refuseUnprovenFix(deps, turn, { chosen: [NM1], notOpenNote: "" }, tip, commit(BLOCKED), { again: true });

    expect(posts).toHaveLength(1);
    const body = posts[0]!.body;
    await expect(visible(body)).toMatchFileSnapshot(snap("reply-fix-blocked-again"));
    expect(body.startsWith("@maintainer-max The fix c0ffee1 was not pushed to `invoice-cents`: ")).toBe(true);
    expect(body.endsWith("The fixer gets one more round with this failure.")).toBe(true);
    expect(body.slice("@maintainer-max".length)).not.toMatch(LIVE_MENTION);
    expect(body).not.toMatch(LIVE_TAG);
    expect(body).toContain("````text\n"); // a fence the output's own ``` cannot close
  });

  it("at the end: why it stops, and the change as a patch", async () => {
    const { posts, deps, turn, tip } = await setUp(302);
    await refuseUnprovenFix(deps, turn, { chosen: [NM1], notOpenNote: "" }, tip, commit(BLOCKED), {
      again: false,
      why: "The fixer's second round does not pass either, so the fix stops here",
    });

    const body = posts[0]!.body;
    await expect(visible(body)).toMatchFileSnapshot(snap("reply-fix-blocked-stopped"));
    expect(body.startsWith("@maintainer-max The fix was made but not pushed to `invoice-cents`: ")).toBe(true);
    expect(body).toContain("so the fix stops here; nothing was pushed.");
    expect(body.endsWith("```\n\n</details>")).toBe(true);
    expect(body.slice("@maintainer-max".length)).not.toMatch(LIVE_MENTION);
  });
});

describe("a fix that passed", () => {
  it("the Pushed reply says what ran on it and which regression tests it carries", async () => {
    const { posts, deps, turn, tip } = await setUp(303);
    const proof: FixProof = {
      failures: [],
      passing: [{ finding: NM1, command: "node --test repro/" }],
      passed: ["setup", "tests"],
      failedBefore: ["lint"],
      brokenBefore: [],
    };
    const pushed = {
      ...commit(proof),
      regressionTests: {
        added: ["repro/last.test.js"],
        leftOut: [{ path: ".github/workflows/repro.yml", why: "a workflow file" }],
      },
    };
    await recordPushedFix(deps, turn, { chosen: [NM1], notOpenNote: "" }, tip, pushed);

    const body = posts[0]!.body;
    await expect(visible(body)).toMatchFileSnapshot(snap("reply-fix-pushed-proven"));
    expect(body).toContain("\n\nBefore the push:\n- NM-1's reproducer `node --test repro/` now passes.");
  });

  it("the finding's thread: resolved, citing the reproducer that now passes", async () => {
    const { github, posts } = await setUp(304);
    await resolveFindingThreads(
      github,
      { owner: "octo", repo: "shop" },
      304,
      FIX_SHA,
      [{ ...NM1, commentId: 880001 } as Finding],
      captureLogger().log,
      { passing: "node --test repro/ @alice", note: "Confirmed by an independent check: it reads the last element." },
    );

    const body = posts[0]!.body;
    await expect(visible(body)).toMatchFileSnapshot(snap("reply-resolved-reproducer"));
    expect(body.startsWith("Resolved in c0ffee1: `node --test repro/ @")).toBe(true);
    expect(body).not.toMatch(LIVE_MENTION);
  });
});
