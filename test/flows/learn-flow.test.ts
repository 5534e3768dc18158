import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { insertFindings, updateFinding } from "../../src/db/findings.js";
import { upsertRun } from "../../src/db/runs.js";
import { findings } from "../../src/db/schema.js";
import { bugAndNitReview, FlowFixture, numbered, OWNER, REPO, REPO_ID } from "../helpers/flow-fixture.js";
import { useFlowDatabase } from "../helpers/use-flow-database.js";

let fx: FlowFixture;
const database = useFlowDatabase(() => fx);

const WRITER = { login: "maintainer" };
const LEAD = { login: "lead" };
const VISITOR = { login: "visitor" };
/** The PR's author in the example payloads; read access only. */
const AUTHOR = { login: "Codertocat" };
const PERMISSIONS = { maintainer: "write", lead: "write", visitor: "read", Codertocat: "read" };
const LEARNINGS = ".github/no-mistakes/learnings.md";
const BRANCH = "no-mistakes/learnings";
const WEB = `https://github.com/${OWNER}/${REPO}`;

/** Opens the PR and lets the first review land: NM-1 (error) and NM-2 (info), each an inline comment by the bot. */
async function openReviewed(branchFiles?: Record<string, Record<string, string>>): Promise<string> {
  fx = await FlowFixture.start(database.handle, {
    permissions: PERMISSIONS,
    ...(branchFiles ? { branchFiles } : {}),
  });
  return fx.openReviewed(bugAndNitReview("ask-user"));
}

/** A writer's comment on the PR with a known id (so a test can tell where a decision was made). */
async function commentAs(user: { login: string }, body: string, commentId: number): Promise<void> {
  await fx.app.receive("issue_comment", fx.commentPayload(body, user, commentId));
  await fx.idle();
}

/** PR_APP's changed lines (10 to 12), to push a variation of them. */
const PR_LINES = { 10: "changed 10", 11: "for (i = 0; i <= n; i++)", 12: "changed 12" };

/** The first review of PR_APP: NM-1 (error: the loop bound) and NM-2 (a warning on line 12, below review.fail_on). */
function warningReview() {
  const review = bugAndNitReview("ask-user");
  review.answer.findings[1] = { ...review.answer.findings[1]!, severity: "warning" };
  return review;
}

/**
 * Opens the PR with warningReview's findings, its default branch's learnings file already holding every
 * decision until now (the earlier tests' decisions share this database and repository).
 */
async function openAfterEarlierTests(onBranch: string[] = []): Promise<string> {
  const since = new Date();
  await new Promise((r) => setTimeout(r, 5));
  const marker = `<!-- no-mistakes learned up to ${since.toISOString()} -->\n`;
  fx = await FlowFixture.start(database.handle, {
    permissions: PERMISSIONS,
    branchFiles: {
      main: { [LEARNINGS]: marker },
      ...(onBranch.length > 0 ? { [BRANCH]: { [LEARNINGS]: `${marker}\n${onBranch.join("\n")}\n` } } : {}),
    },
  });
  return fx.openReviewed(warningReview());
}

/** The reviewer's answer to an argument in a finding's thread. */
const ruling = (kind: string, reason: string) => ({
  role: "reviewer",
  answer: { ruling: kind, reason, reply: "Noted." },
});

let otherPr = 9100;

/** Another pull request of the same repository (or of another one), its ledger written by the app's db functions. */
async function otherRun(repositoryId = REPO_ID) {
  const prNumber = ++otherPr;
  const run = await upsertRun(database.handle.db, {
    installationId: 99,
    repositoryId,
    repositoryFullName: repositoryId === REPO_ID ? `${OWNER}/${REPO}` : `${OWNER}/elsewhere`,
    cloneUrl: "https://github.com/x.git",
    prNumber,
    baseRef: "main",
    baseSha: "a".repeat(40),
    headRef: "topic",
    headSha: "b".repeat(40),
  });
  const finding = (n: number, title: string, commentId: number | null) => ({
    fingerprint: `fp-${prNumber}-${n}`,
    path: "src/db/pool.ts",
    line: n,
    severity: "warning",
    action: "ask-user",
    title,
    body: "…",
    commentId,
    reviewId: 880_000 + prNumber,
  });
  await insertFindings(database.handle.db, run.id, [
    finding(1, "Pool size is hard-coded", 55_501),
    finding(2, "Missing index on lookups", null),
    finding(3, "Unused import", 55_503),
    finding(4, "Still open", 55_504),
    finding(5, "Ancient dismissal", 55_505),
  ]);
  return { run, prNumber };
}

/** Git's blob id of a text, as the contents API names a file's current version. */
const gitBlobSha = (t: string) =>
  createHash("sha1")
    .update(`blob ${Buffer.byteLength(t)}\0${t}`)
    .digest("hex");
const putsOf = () => fx.github.sent("PUT", "/contents/");
const text = (put: { body: any }) => Buffer.from(put.body.content, "base64").toString("utf8");

describe("/no-mistakes learn", () => {
  it("proposes the writers' decisions as a pull request from the bot's branch, each line naming who decided and linking where; a second learn adds to the same pull request; then there is nothing new", async () => {
    await openReviewed();
    // NM-1 withdrawn by the reviewer after a writer argued in its thread (a real ruling)
    const nm1 = fx.findingComment("NM-1");
    fx.app.scenario([
      {
        role: "reviewer",
        match: "NM-1",
        answer: {
          ruling: "withdrawn",
          reason: "Callers pass n - 1 @octo-org/core [see](https://evil.example/x) ![i](https://evil.example/p.png)",
          reply: "You are right.",
        },
      },
    ]);
    const argued = await fx.replyInThread(WRITER, nm1.id, "All callers pass n - 1.");
    // NM-2 dismissed with a reason by a writer
    await commentAs(WRITER, "/no-mistakes dismiss NM-2 we name things like this, fixes #3 cc @dev-team", 424_242);
    expect((await fx.findings()).map((f) => [f.number, f.status])).toEqual([
      [1, "withdrawn"],
      [2, "dismissed"],
    ]);

    // Another PR of the repository, its ledger written as the app writes it: an upheld ruling (the
    // reviewer's, not a writer's decision), a writer's dismissal in a review's body, one without a reason,
    // one still open, one decided long ago; and a PR of another repository.
    const other = await otherRun();
    const db = database.handle.db;
    const dismissal = (url: string) => ({ actor: "lead", url });
    await updateFinding(db, other.run.id, 1, {
      ruling: "upheld",
      rulingReason: "The pool size is a deploy setting.",
      rulingBy: "lead",
    });
    await updateFinding(
      db,
      other.run.id,
      2,
      { status: "dismissed", dismissReason: "Lookups are on the primary key." },
      dismissal("#issuecomment-77"),
    );
    await updateFinding(
      db,
      other.run.id,
      3,
      { status: "dismissed", dismissReason: null },
      dismissal("#issuecomment-78"),
    );
    await updateFinding(
      db,
      other.run.id,
      5,
      { status: "dismissed", dismissReason: "Long ago." },
      dismissal("#issuecomment-79"),
    );
    const [old] = await db
      .select()
      .from(findings)
      .where(eq(findings.fingerprint, `fp-${other.prNumber}-5`));
    await db
      .update(findings)
      .set({ updatedAt: new Date(Date.now() - 120 * 24 * 3600_000) })
      .where(eq(findings.id, old!.id));
    const elsewhere = await otherRun(REPO_ID + 1);
    await updateFinding(
      db,
      elsewhere.run.id,
      1,
      { status: "dismissed", dismissReason: "Another repository." },
      dismissal("#issuecomment-80"),
    );

    await fx.comment("/no-mistakes learn", WRITER);

    // the bot's branch, made from the default branch's head
    expect(fx.github.sent("POST", "/git/refs").map((r) => r.body)).toEqual([
      { ref: `refs/heads/${BRANCH}`, sha: fx.baseSha },
    ]);
    // one file written, on the bot's branch, never on the default branch
    const [put, ...morePuts] = putsOf();
    expect(morePuts).toEqual([]);
    expect(put!.path).toContain(`/repos/${OWNER}/${REPO}/contents/`);
    expect(decodeURIComponent(put!.path)).toContain(LEARNINGS);
    expect(put!.body.branch).toBe(BRANCH);
    expect(put!.body.sha).toBeUndefined(); // a new file
    const file = text(put!);
    const lines = file.split("\n").filter((l) => l.startsWith("- "));
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^- Withdrawn by the reviewer: Callers pass n - 1 .*"Off-by-one in loop bound" \\(error, \`src/app.ts\`\\) — argued by maintainer in \\[#${fx.pr} NM-1\\]\\(${WEB}/pull/${fx.pr}#discussion_r${argued.id}\\)$`,
        ),
      ),
      `- Dismissed: we name things like this, fixes issue 3 cc dev-team — "Naming nit" (info, \`src/app.ts\`) — dismissed by maintainer in [#${fx.pr} NM-2](${WEB}/pull/${fx.pr}#issuecomment-424242)`,
      `- Dismissed: Lookups are on the primary key. — "Missing index on lookups" (warning, \`src/db/pool.ts\`) — dismissed by lead in [#${other.prNumber} NM-2](${WEB}/pull/${other.prNumber}#issuecomment-77)`,
    ]);
    // the model's reason is made inert: no mention, no link, no image
    expect(lines[0]).not.toMatch(/@octo-org|\]\(https:\/\/evil|!\[/);
    expect(lines[0]).toContain("octo-org/core \\[see\\]\\(https://evil.example/x\\)");
    expect(file).not.toContain("Another repository");
    expect(file).not.toContain("Long ago");
    expect(file).not.toContain("Unused import");
    expect(file).not.toContain("Still open");
    expect(file).not.toContain("Pool size is hard-coded");
    expect(file.startsWith("# Learnings\n")).toBe(true);

    // the pull request: from the bot's branch to the default branch, its body saying whose each line is
    const [pull, ...morePulls] = fx.github.sent("POST", /\/pulls$/);
    expect(morePulls).toEqual([]);
    expect(pull!.body).toMatchObject({ head: BRANCH, base: "main" });
    expect(pull!.body.body).toContain(
      ["Decided by maintainer:", "", lines[0], lines[1], "", "Decided by lead:", "", lines[2], ""].join("\n"),
    );
    expect(pull!.body.body).not.toContain("@");
    const learnPr = fx.github.createdPulls[0]!;
    expect(fx.replies().at(-1)).toBe(
      `@maintainer Proposed 3 learnings in ${learnPr.html_url} (\`${LEARNINGS}\`, decisions since ${new Date(Date.now() - 90 * 24 * 3600_000).toISOString().slice(0, 10)}). Merge it to make them guidelines; edit or delete lines first as you see fit.`,
    );
    expect(fx.github.branchFile(BRANCH, LEARNINGS)).toBe(file);
    expect(fx.github.branchFile("main", LEARNINGS)).toBeUndefined();

    // A new decision (a withdrawal a writer argued for), then learn again: one more commit on the same
    // branch, the same pull request
    await updateFinding(
      db,
      other.run.id,
      4,
      {
        status: "withdrawn",
        ruling: "withdrawn",
        rulingReason: "Handled upstream.",
        rulingBy: "lead",
        rulingConfirmation: "writer",
      },
      { kind: "withdrawn", actor: "reviewer", url: "#discussion_r55514" },
    );
    await fx.comment("/no-mistakes learn", WRITER);
    expect(fx.github.sent("POST", /\/pulls$/)).toHaveLength(1);
    expect(fx.github.sent("POST", "/git/refs")).toHaveLength(1);
    expect(fx.github.sent("PATCH", "/git/refs")).toHaveLength(0);
    const second = putsOf()[1]!;
    expect(second.body.branch).toBe(BRANCH);
    expect(second.body.sha).toBe(gitBlobSha(file)); // the file as the branch holds it
    const updated = text(second);
    expect(updated.startsWith(file.split("<!--")[0]!)).toBe(true);
    const updatedLines = updated.split("\n").filter((l) => l.startsWith("- "));
    expect(updatedLines.slice(0, 3)).toEqual(lines);
    expect(updatedLines.slice(3)).toEqual([
      `- Withdrawn by the reviewer: Handled upstream. — "Still open" (warning, \`src/db/pool.ts\`) — argued by lead in [#${other.prNumber} NM-4](${WEB}/pull/${other.prNumber}#discussion_r55514)`,
    ]);
    const [patched] = fx.github.sent("PATCH", `/pulls/${learnPr.number}`);
    expect(patched!.body.body).toContain(
      [
        "Decided by maintainer:",
        "",
        lines[0],
        lines[1],
        "",
        "Decided by lead:",
        "",
        lines[2],
        updatedLines[3],
        "",
      ].join("\n"),
    );
    expect(fx.replies().at(-1)).toMatch(new RegExp(`^@maintainer Added 1 learning in ${learnPr.html_url} `));

    // Nothing new: a reply saying so, nothing written
    await fx.comment("/no-mistakes learn", WRITER);
    expect(putsOf()).toHaveLength(2);
    expect(fx.replies().at(-1)).toMatch(
      new RegExp(`^@maintainer Nothing new to learn: .* The open learnings pull request is ${learnPr.html_url}\\.$`),
    );

    // The learnings pull request closed unmerged: the next learn starts the bot's branch again from the
    // default branch's head and opens a new pull request (what was not merged is proposed again)
    fx.github.createdPulls[0]!.state = "closed";
    await fx.comment("/no-mistakes learn", WRITER);
    expect(fx.github.sent("PATCH", "/git/refs/").map((r) => [decodeURIComponent(r.path), r.body])).toEqual([
      [`/repos/${OWNER}/${REPO}/git/refs/heads/${BRANCH}`, { sha: fx.baseSha, force: true }],
    ]);
    const third = putsOf()[2]!;
    expect(third.body).toMatchObject({ branch: BRANCH });
    expect(third.body.sha).toBeUndefined();
    expect(
      text(third)
        .split("\n")
        .filter((l) => l.startsWith("- ")),
    ).toEqual(updatedLines);
    expect(fx.github.createdPulls.map((p) => [p.number, p.state, p.head, p.base])).toEqual([
      [learnPr.number, "closed", BRANCH, "main"],
      [learnPr.number + 1, "open", BRANCH, "main"],
    ]);

    // never a write to the default branch
    expect(fx.github.filePuts.map((p) => p.branch)).toEqual([BRANCH, BRANCH, BRANCH]);
    expect(fx.github.sent("PATCH", "/git/refs/heads%2Fmain")).toEqual([]);
  });

  it("a read-only author's arguments are not the team's: a warning withdrawn on the author's word, a withdrawal the author 'confirmed', a fix in a pull request closed unmerged — nothing to learn", async () => {
    const head = await openAfterEarlierTests();
    // the author argues the warning away: below review.fail_on, so the reviewer's withdrawal takes effect
    fx.app.scenario([ruling("withdrawn", "Every name is fine in this repository; do not raise names again.")]);
    await fx.replyInThread(AUTHOR, fx.findingComment("NM-2").id, "Names are our business, not yours.");
    // the author argues the error away too (it awaits a maintainer) and then "confirms" it themselves
    fx.app.scenario([ruling("withdrawn", "The bound is guarded upstream.")]);
    await fx.replyInThread(AUTHOR, fx.findingComment("NM-1").id, "There is a guard upstream.");
    await fx.replyInThread(AUTHOR, fx.findingComment("NM-1").id, "confirm");
    expect((await fx.findings()).map((f) => [f.number, f.status, f.ruling, f.rulingConfirmation])).toEqual([
      [1, "open", "withdrawn", "awaiting"],
      [2, "withdrawn", "withdrawn", "not-needed"],
    ]);
    // the loop bound fixed by a push, then the pull request closed without merging
    const fixed = await fx.pushLoopFix(head);
    expect((await fx.findings()).map((f) => f.status)).toEqual(["fixed", "withdrawn"]);
    await fx.pullRequest("closed", fixed);

    await fx.comment("/no-mistakes learn", WRITER);

    expect(fx.replies().at(-1)).toMatch(/^@maintainer Nothing new to learn: /);
    expect(putsOf()).toEqual([]);
    expect(fx.github.sent("POST", /\/pulls$/)).toEqual([]);
    expect(fx.github.sent("POST", "/git/refs")).toEqual([]);
    expect(await fx.run()).toMatchObject({ state: "closed", mergedAt: null, mergedBy: null });
  });

  it("a withdrawal a writer confirmed and a finding fixed in a merged pull request are learnt, each naming the writer and linking where; the pull request says whose each line is", async () => {
    // the open learnings pull request already holds a line that names no one (an earlier version's)
    const unnamed = `- Upheld after discussion: argued — "Old" (warning) — [#1 NM-9](${WEB}/pull/1#discussion_r9)`;
    const head = await openAfterEarlierTests([unnamed]);
    fx.github.createdPulls.push({
      number: 6999,
      head: BRANCH,
      base: "main",
      title: "learnings",
      body: "",
      state: "open",
      html_url: `${WEB}/pull/6999`,
    });
    // NM-1 (an error): the author argues, the reviewer withdraws, and a writer confirms in the thread
    const nm1 = fx.findingComment("NM-1");
    fx.app.scenario([ruling("withdrawn", "The bound is guarded upstream.")]);
    await fx.replyInThread(AUTHOR, nm1.id, "There is a guard upstream.");
    const confirmed = await fx.replyInThread(LEAD, nm1.id, "Confirm.");
    expect((await fx.findings())[0]).toMatchObject({ status: "withdrawn", rulingConfirmedBy: "lead" });
    // NM-2 (the warning): its line changed by a push and resolved; the pull request is then merged
    const renamed = fx.push({ "src/app.ts": numbered("app", 30, { ...PR_LINES, 12: "renamed 12" }) });
    fx.app.scenario([{ role: "reviewer", answer: { summary: "Renamed.", findings: [], resolved: ["NM-2"] } }]);
    await fx.pullRequest("synchronize", renamed, { before: head });
    expect((await fx.findings()).map((f) => f.status)).toEqual(["withdrawn", "fixed"]);
    await fx.pullRequest("closed", renamed, { mergedBy: "maintainer" });

    await fx.comment("/no-mistakes learn", WRITER);

    const [put, ...more] = putsOf();
    expect(more).toEqual([]);
    const lines = text(put!)
      .split("\n")
      .filter((l) => l.startsWith("- "));
    expect(lines).toEqual([
      unnamed,
      `- Withdrawn by the reviewer: The bound is guarded upstream. — "Off-by-one in loop bound" (error, \`src/app.ts\`) — confirmed by lead in [#${fx.pr} NM-1](${WEB}/pull/${fx.pr}#discussion_r${confirmed.id})`,
      `- Fixed before the pull request was merged — "Naming nit" (warning, \`src/app.ts\`) — merged by maintainer in [#${fx.pr} NM-2](${WEB}/pull/${fx.pr}#discussion_r${fx.findingComment("NM-2").id})`,
    ]);
    expect(fx.github.sent("POST", /\/pulls$/)).toEqual([]);
    const [patched] = fx.github.sent("PATCH", "/pulls/6999");
    expect(patched!.body.body).toContain(
      [
        "Decided by lead:",
        "",
        lines[1],
        "",
        "Decided by maintainer:",
        "",
        lines[2],
        "",
        "Naming no one who decided (written by hand or by an earlier version): check them before merging.",
        "",
        unnamed,
        "",
      ].join("\n"),
    );
    expect(await fx.run()).toMatchObject({ state: "closed", mergedBy: "maintainer", mergedAt: expect.any(Date) });
  });

  it("decisions already in the default branch's file are not proposed again: nothing to learn, nothing written", async () => {
    const since = new Date();
    await new Promise((r) => setTimeout(r, 5));
    fx = await FlowFixture.start(database.handle, { permissions: { maintainer: "write" } });
    const pr = fx.pr;
    fx.replaceStandIn({
      permissions: { maintainer: "write" },
      branchFiles: {
        main: {
          [LEARNINGS]: `# Learnings\n\n<!-- no-mistakes learned up to ${since.toISOString()} -->\n\n- Dismissed: merged earlier — [#${pr} NM-2](${WEB}/pull/${pr}#discussion_r1)\n`,
        },
      },
    });
    await fx.openReviewed(bugAndNitReview("ask-user"));
    await fx.comment("/no-mistakes dismiss NM-2 already learnt", WRITER);

    await fx.comment("/no-mistakes learn", WRITER);

    expect(fx.replies().at(-1)).toBe(
      `@maintainer Nothing new to learn: every decision since ${since.toISOString().slice(0, 10)} is already in \`${LEARNINGS}\`.`,
    );
    expect(putsOf()).toEqual([]);
    expect(fx.github.sent("POST", /\/pulls$/)).toEqual([]);
    expect(fx.github.sent("POST", "/git/refs")).toEqual([]);
  });

  it("on GitHub Enterprise Server the lines link where it was decided on the Enterprise host (the repository's html_url)", async () => {
    const since = new Date();
    await new Promise((r) => setTimeout(r, 5));
    fx = await FlowFixture.start(
      database.handle,
      {
        apiUrl: "http://ghe.example.test/api/v3",
        permissions: { maintainer: "write" },
        branchFiles: { main: { [LEARNINGS]: `<!-- no-mistakes learned up to ${since.toISOString()} -->\n` } },
      },
      { env: { GHE_HOST: "ghe.example.test", GHE_PROTOCOL: "http" } },
    );
    const other = await otherRun();
    await updateFinding(
      database.handle.db,
      other.run.id,
      1,
      { status: "dismissed", dismissReason: "By design." },
      { actor: "maintainer", url: "#issuecomment-5" },
    );

    await fx.comment("/no-mistakes learn", WRITER);

    const [put, ...more] = putsOf();
    expect(more).toEqual([]);
    expect(put!.body.branch).toBe(BRANCH);
    expect(put!.body.sha).toBe(gitBlobSha(`<!-- no-mistakes learned up to ${since.toISOString()} -->\n`));
    expect(
      text(put!)
        .split("\n")
        .filter((l) => l.startsWith("- ")),
    ).toEqual([
      `- Dismissed: By design. — "Pool size is hard-coded" (warning, \`src/db/pool.ts\`) — dismissed by maintainer in [#${other.prNumber} NM-1](http://ghe.example.test/${OWNER}/${REPO}/pull/${other.prNumber}#issuecomment-5)`,
    ]);
    expect(fx.replies().at(-1)).toContain(`http://ghe.example.test/${OWNER}/${REPO}/pull/7000`);
  });

  it("GitHub refusing the bot's branch (a permission): a reply says so; no pull request, nothing on the default branch", async () => {
    const since = new Date();
    await new Promise((r) => setTimeout(r, 5));
    fx = await FlowFixture.start(database.handle, {
      permissions: { maintainer: "write" },
      branchFiles: { main: { [LEARNINGS]: `<!-- no-mistakes learned up to ${since.toISOString()} -->\n` } },
      failOnce: [
        {
          request: "POST /git/refs",
          status: 403,
          message: "Resource not accessible by integration",
          headers: { "x-accepted-github-permissions": "contents=write" },
        },
      ],
    });
    const other = await otherRun();
    await updateFinding(
      database.handle.db,
      other.run.id,
      1,
      { status: "dismissed", dismissReason: "By design." },
      { actor: "maintainer", url: "#issuecomment-5" },
    );

    await fx.comment("/no-mistakes learn", WRITER);

    expect(fx.replies().at(-1)).toMatch(
      /^@maintainer I could not propose the learnings: GitHub refused `create branch no-mistakes\/learnings: 403 Resource not accessible by integration` \(the App needs `contents=write`\)\.$/,
    );
    expect(fx.github.sent("POST", "/git/refs")).toHaveLength(1);
    expect(putsOf()).toEqual([]);
    expect(fx.github.sent("POST", /\/pulls$/)).toEqual([]);
  });

  it("is for writers only: a reader is refused and nothing is read or written", async () => {
    await openReviewed();
    await fx.comment("/no-mistakes dismiss NM-2 a reason", WRITER);

    await fx.comment("/no-mistakes learn", VISITOR);

    expect(fx.replies().at(-1)).toBe(
      "@visitor `/no-mistakes learn` needs write access to this repository (yours: read). Anyone can use `status`, `config` and `help`.",
    );
    expect(fx.github.sent("GET", /contents\/.*ref=/)).toEqual([]);
    expect(putsOf()).toEqual([]);
    expect(fx.github.sent("POST", /\/pulls$/)).toEqual([]);
  });
});
