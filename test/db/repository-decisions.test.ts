import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFindings, updateFinding } from "../../src/db/findings.js";
import { listRepositoryDecisions } from "../../src/db/repository-decisions.js";
import { updateRun, upsertRun } from "../../src/db/runs.js";
import { findings } from "../../src/db/schema.js";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../helpers/test-database.js";

const kinds = await databaseKinds();

const TITLES = [
  "dismissed by a writer",
  "dismissed without a reason",
  "dismissed before events were kept",
  "withdrawn on the author's argument",
  "withdrawn on a writer's argument",
  "withdrawn, confirmed by a writer",
  "withdrawn before confirmations were kept",
  "upheld",
  "awaiting a maintainer",
  "fixed",
];

describe.each(kinds)("a repository's decisions on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  async function run(repositoryId: number, prNumber: number): Promise<number> {
    const row = await upsertRun(database.handle.db, {
      installationId: 1,
      repositoryId,
      repositoryFullName: `octo/r${repositoryId}`,
      cloneUrl: "https://github.com/octo/r.git",
      prNumber,
      baseRef: "main",
      baseSha: "a".repeat(40),
      headRef: "topic",
      headSha: "b".repeat(40),
      authorLogin: "author",
    });
    await insertFindings(
      database.handle.db,
      row.id,
      TITLES.map((title, i) => ({
        fingerprint: `fp-${i}`,
        path: "src/a.ts",
        line: i + 1,
        severity: "warning",
        action: "ask-user",
        title,
        body: "",
        commentId: 100 * prNumber + i,
      })),
    );
    return row.id;
  }

  /** Each finding of the run decided as its title says, through the ledger's own writes (events included). */
  async function decide(runId: number): Promise<void> {
    const db = database.handle.db;
    await updateFinding(
      db,
      runId,
      1,
      { status: "dismissed", dismissReason: "intended" },
      { actor: "maintainer", detail: "intended", url: "#issuecomment-11" },
    );
    await updateFinding(db, runId, 2, { status: "dismissed", dismissReason: "" }, { actor: "maintainer" });
    await db
      .update(findings)
      .set({ status: "dismissed", dismissReason: "old" })
      .where(eq(findings.fingerprint, "fp-2"));
    const ruled = (by: string, confirmation: string | null) => ({
      status: "withdrawn",
      ruling: "withdrawn",
      rulingReason: "callers differ",
      rulingBy: by,
      rulingConfirmation: confirmation,
    });
    const rulingEvent = (url: string) => ({ kind: "withdrawn", actor: "reviewer", url });
    await updateFinding(db, runId, 4, ruled("author", "not-needed"), rulingEvent("#discussion_r41"));
    await updateFinding(db, runId, 5, ruled("maintainer", "writer"), rulingEvent("#discussion_r51"));
    await updateFinding(
      db,
      runId,
      6,
      { ...ruled("author", "awaiting"), status: "open" },
      rulingEvent("#discussion_r61"),
    );
    await updateFinding(
      db,
      runId,
      6,
      { status: "withdrawn", rulingConfirmation: "confirmed", rulingConfirmedBy: "lead" },
      { kind: "confirmed", actor: "lead", url: "#discussion_r62" },
    );
    await updateFinding(db, runId, 7, ruled("author", null), rulingEvent("#discussion_r71"));
    await updateFinding(db, runId, 8, { ruling: "upheld", rulingReason: "still wrong", rulingBy: "maintainer" });
    await updateFinding(
      db,
      runId,
      9,
      { ...ruled("author", "awaiting"), status: "open" },
      rulingEvent("#discussion_r91"),
    );
    await updateFinding(db, runId, 10, { status: "fixed" }, { actor: "reviewer" });
  }

  it("lists only what a writer decided — a dismissal with a reason, a withdrawal a writer argued for or confirmed, a fix in a merged PR — with who and where, oldest first", async () => {
    const db = database.handle.db;
    const before = new Date(Date.now() - 1000);
    const old = await run(7, 1);
    const closed = await run(7, 2);
    const merged = await run(7, 3);
    const elsewhere = await run(8, 1);
    for (const runId of [old, closed, merged, elsewhere]) await decide(runId);
    await updateRun(db, closed, { state: "closed" });
    const mergedAt = new Date(Date.now() + 60_000);
    await updateRun(db, merged, { state: "closed", mergedAt, mergedBy: "merger" });
    await updateRun(db, elsewhere, { state: "closed", mergedAt, mergedBy: "merger" });
    // the first PR was decided long ago: before the horizon
    await db
      .update(findings)
      .set({ updatedAt: new Date(Date.now() - 100 * 24 * 3600_000) })
      .where(eq(findings.runId, old));

    const decisions = await listRepositoryDecisions(db, 7, before);
    expect(decisions.map((d) => [d.prNumber, d.title, d.how, d.decidedBy, d.anchor])).toEqual([
      [2, "dismissed by a writer", "dismissed", "maintainer", "#issuecomment-11"],
      [2, "withdrawn on a writer's argument", "argued", "maintainer", "#discussion_r51"],
      [2, "withdrawn, confirmed by a writer", "confirmed", "lead", "#discussion_r62"],
      [3, "dismissed by a writer", "dismissed", "maintainer", "#issuecomment-11"],
      [3, "withdrawn on a writer's argument", "argued", "maintainer", "#discussion_r51"],
      [3, "withdrawn, confirmed by a writer", "confirmed", "lead", "#discussion_r62"],
      // a fix counts when its PR was merged, decided when it was merged, by whoever merged it
      [3, "fixed", "merged", "merger", null],
    ]);
    expect(decisions[0]).toMatchObject({ dismissReason: "intended", commentId: 200, status: "dismissed" });
    expect(decisions.at(-1)!.decidedAt.getTime()).toBe(mergedAt.getTime());

    // The horizon is the decision's time: a fix merged after it counts even if the finding changed before it.
    const all = await listRepositoryDecisions(db, 7, new Date(0));
    expect(all.map((d) => [d.prNumber, d.number])).toEqual([
      [1, 1],
      [1, 5],
      [1, 6],
      [2, 1],
      [2, 5],
      [2, 6],
      [3, 1],
      [3, 5],
      [3, 6],
      [3, 10],
    ]);
    expect((await listRepositoryDecisions(db, 7, new Date(mergedAt.getTime() - 1))).map((d) => d.title)).toEqual([
      "fixed",
    ]);
    expect(await listRepositoryDecisions(db, 7, new Date(0), 2)).toHaveLength(2);
    expect(await listRepositoryDecisions(db, 9, new Date(0))).toEqual([]);
  });
});
