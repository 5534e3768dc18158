import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFindings, updateFinding } from "../../src/db/findings.js";
import { listRepositoryDecisions } from "../../src/db/repository-decisions.js";
import { upsertRun } from "../../src/db/runs.js";
import { findings } from "../../src/db/schema.js";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../helpers/test-database.js";

const kinds = await databaseKinds();

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
    });
    const titles = ["dismissed with a reason", "dismissed without one", "withdrawn", "upheld", "open", "upheld note"];
    await insertFindings(
      database.handle.db,
      row.id,
      titles.map((title, i) => ({
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

  it("lists dismissals with a reason, withdrawals and upheld rulings of every PR of the repository since the horizon, oldest first", async () => {
    const db = database.handle.db;
    const before = new Date(Date.now() - 1000);
    const first = await run(7, 1);
    const second = await run(7, 2);
    const elsewhere = await run(8, 1);
    for (const runId of [first, second, elsewhere]) {
      await updateFinding(db, runId, 1, { status: "dismissed", dismissReason: "intended" });
      await updateFinding(db, runId, 2, { status: "dismissed", dismissReason: "" });
      await updateFinding(db, runId, 3, { status: "withdrawn", ruling: "withdrawn", rulingReason: "callers differ" });
      await updateFinding(db, runId, 4, { ruling: "upheld", rulingReason: "still wrong" });
      await updateFinding(db, runId, 6, { status: "note", ruling: "upheld" });
    }
    // the first PR's dismissal was decided long ago: before the horizon
    await db
      .update(findings)
      .set({ updatedAt: new Date(Date.now() - 100 * 24 * 3600_000) })
      .where(eq(findings.runId, first));

    const decisions = await listRepositoryDecisions(db, 7, before);
    expect(decisions.map((d) => [d.prNumber, d.number, d.status, d.ruling])).toEqual([
      [2, 1, "dismissed", null],
      [2, 3, "withdrawn", "withdrawn"],
      [2, 4, "open", "upheld"],
    ]);
    expect(decisions[0]).toMatchObject({ dismissReason: "intended", commentId: 200, title: "dismissed with a reason" });
    expect(decisions[2]!.decidedAt.getTime()).toBeGreaterThanOrEqual(decisions[0]!.decidedAt.getTime());

    const all = await listRepositoryDecisions(db, 7, new Date(0));
    expect(all.map((d) => [d.prNumber, d.number])).toEqual([
      [1, 1],
      [1, 3],
      [1, 4],
      [2, 1],
      [2, 3],
      [2, 4],
    ]);
    expect(await listRepositoryDecisions(db, 7, new Date(0), 2)).toHaveLength(2);
    expect(await listRepositoryDecisions(db, 9, new Date(0))).toEqual([]);
  });
});
