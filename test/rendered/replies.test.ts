import { describe, expect, it } from "vitest";
import { handleCommand } from "../../src/pipeline/command/handle-command.js";
import { parseCommand } from "../../src/domain/parse-command.js";
import { parseRepoConfig } from "../../src/config/repo/repo-config.js";
import { renderStatus } from "../../src/pipeline/command/render-status.js";
import type { Database } from "../../src/db/database.js";
import { resolveFindingThreads } from "../../src/pipeline/publish/resolve-finding-threads.js";
import type { Refusals } from "../../src/refusals/refusals.js";
import { captureLogger } from "../helpers/capture-logger.js";
import { fakeGitHub } from "./fake-github.js";
import {
  finding,
  FIX_SHA,
  HEAD_SHA,
  LIVE_MENTION,
  PREVIOUS_SHA,
  run,
  session,
  snap,
  turn,
  visible,
  roundingFinding,
  sqlFinding,
} from "./fixtures.js";

/**
 * Replies that need no ledger: the "Resolved in <sha>." thread reply, `help` and an unknown command, and
 * `status` (its renderer, called directly). The replies built inside the fix, verify, conversation and
 * refusal paths are in replies-flows.test.ts.
 */

const REF = { owner: "octo", repo: "shop" };

describe("thread reply on a resolved finding", () => {
  it("says the head that resolved it, once per finding with a comment", async () => {
    const { github, posts } = fakeGitHub({});
    await resolveFindingThreads(
      github,
      REF,
      128,
      HEAD_SHA,
      [
        finding({ number: 1, commentId: 880001 }),
        finding({ number: 2, commentId: null }),
        finding({ number: 3, commentId: 880003 }),
      ],
      captureLogger().log,
    );

    expect(posts.map((p) => (p.where === "thread" ? p.inReplyTo : "conversation"))).toEqual([880001, 880003]);
    expect(posts[0]!.body).toBe(posts[1]!.body);
    await expect(visible(posts[0]!.body)).toMatchFileSnapshot(snap("reply-resolved"));
    expect(posts[0]!.body).toBe("Resolved in 4f1c2d3.");
  });
});

describe("command replies without a run", () => {
  const deps = {
    // help and unknown are answered before the run is looked up: no database is touched
    db: undefined as unknown as Database,
    log: captureLogger().log,
    enqueueRun: async () => null,
    refusals: undefined as unknown as Refusals, // nothing is refused
  };
  const job = (body: string, author: string) => ({
    installationId: 99,
    repositoryId: 4242,
    repositoryFullName: "octo/shop",
    cloneUrl: "https://github.com/octo/shop.git",
    prNumber: 128,
    commentId: 660001,
    author,
    command: parseCommand(body)!,
  });

  it("help", async () => {
    const { github, posts } = fakeGitHub({});
    await handleCommand({ ...deps, github: async () => github }, job("/no-mistakes help", "dev-dana"));

    expect(posts).toHaveLength(1);
    expect(posts[0]!.where).toBe("conversation");
    await expect(visible(posts[0]!.body)).toMatchFileSnapshot(snap("reply-command-help"));
    expect(posts[0]!.body.startsWith("@dev-dana Commands (comment on the pull request):\n")).toBe(true);
    // every row of the command table has its two cells (escaped pipes inside a cell do not split it)
    const rows = posts[0]!.body.split("\n").filter((l) => l.startsWith("| `/no-mistakes"));
    expect(rows).toHaveLength(10);
    for (const row of rows) expect(row.replace(/\\\|/g, "").split("|")).toHaveLength(4);
  });

  it("an unknown command, with a mention and backticks in what was typed", async () => {
    const { github, posts } = fakeGitHub({});
    await handleCommand(
      { ...deps, github: async () => github },
      job("/no-mistakes frobnicate `now` @alice please, and this text runs on well past sixty characters", "dev-dana"),
    );

    expect(posts).toHaveLength(1);
    await expect(visible(posts[0]!.body)).toMatchFileSnapshot(snap("reply-command-unknown"));
    const lead = posts[0]!.body.split("\n")[0]!;
    expect(lead).toBe(
      "@dev-dana I don't know ``/no-mistakes frobnicate `now` @\u200balice please, and this text runs on well p…``. Commands (comment on the pull request):",
    );
    // the echoed text sits in one code span whose fence is longer than any backtick run the commenter typed,
    // and the mention is neutralised inside it too
    expect(lead.slice("@dev-dana".length)).not.toMatch(LIVE_MENTION);
  });
});

describe("status", () => {
  const config = parseRepoConfig("limits:\n  max_turns: 12\n  max_cost_usd: 3\nfix:\n  max_rounds: 2\n").config;
  const turns = [
    turn({ id: 1, role: "reviewer", headSha: PREVIOUS_SHA }),
    turn({ id: 2, role: "fixer", trigger: "command", headSha: PREVIOUS_SHA, costUsd: 1.1 }),
    turn({
      id: 3,
      role: "reviewer",
      trigger: "synchronize",
      headSha: FIX_SHA,
      sessionMode: "resumed",
      status: "failed",
    }),
  ];
  const findings = [
    sqlFinding(),
    roundingFinding({
      status: "fix-pushed",
    }),
    finding({ number: 3, severity: "error", title: "Already fixed", status: "fixed" }),
    finding({
      number: 4,
      severity: "info",
      title: "Magic number | 86400 @alice",
      path: "src/time.ts",
      line: 3,
      status: "note",
    }),
  ];

  it("a run with open findings, a note, both sessions and limits", async () => {
    const body = renderStatus(
      run(),
      findings,
      [
        session("reviewer", "0197f1c2-aaaa-bbbb-cccc-000000000001"),
        session("fixer", "0197f1c2-dddd-eeee-ffff-000000000002"),
      ],
      turns,
      config,
      { posted: 30, fixed: 12, noise: 3 },
    );

    await expect(visible(body)).toMatchFileSnapshot(snap("reply-command-status"));
    expect(body.split("\n").at(-1)).toBe(
      "**Scorecard** · this repository, last 12 weeks: 40% addressed (12 of 30 posted findings fixed) · 10% noise (3 dismissed or withdrawn)",
    );
    expect(body.split("\n")[0]).toBe("**no-mistakes status** · run open · last reviewed 4f1c2d3");
    expect(body).toContain("**Open findings (2)**");
    expect(body).toContain("- reviewer: claude-code session `0197f1c2-aaa` · last turn resumed (failed)");
    expect(body).toContain("**Spend** · 3 turns · $1.94 · fix rounds 1/2 · turns 3/12 · spend $1.94/$3.00");
    expect(body).not.toMatch(LIVE_MENTION);
  });

  it("a paused run never reviewed, nothing stored", async () => {
    const body = renderStatus(run({ state: "paused", lastReviewedSha: null }), [], [], [], config, {
      posted: 0,
      fixed: 0,
      noise: 0,
    });

    await expect(visible(body)).toMatchFileSnapshot(snap("reply-command-status-paused"));
    expect(body.split("\n")[0]).toBe("**no-mistakes status** · automatic reviews paused · last reviewed never");
    expect(body).toContain("- none");
    expect(body).toContain("- fixer: none stored");
  });
});
