import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import type { Database } from "../../src/db/database.js";
import { listFindingEvents } from "../../src/db/finding-events.js";
import { insertFindings, listFindings, updateFinding, type NewFinding } from "../../src/db/findings.js";
import { getRun, updateRun } from "../../src/db/runs.js";
import { createRun } from "../helpers/run-fixture.js";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../helpers/test-database.js";

const kinds = await databaseKinds();

function finding(title: string, extra: Partial<NewFinding> = {}): NewFinding {
  return { fingerprint: title, severity: "warning", action: "auto-fix", title, body: `${title}.`, ...extra };
}

/** Each finding's outcome by number, with when it was decided. */
async function outcomes(db: Database, runId: number) {
  return Object.fromEntries(
    (await listFindings(db, runId)).map((f) => [f.number, { outcome: f.outcome, at: f.outcomeAt?.toISOString() }]),
  );
}

/** When the finding's newest event of one of these kinds happened. */
async function eventAt(db: Database, runId: number, number: number, kinds: string[]): Promise<string> {
  const events = (await listFindingEvents(db, runId, number)).filter((e) => kinds.includes(e.kind));
  return events.at(-1)!.createdAt.toISOString();
}

/** A run with five findings: NM-1 fixed, NM-2 dismissed, NM-3 withdrawn (confirmed later), NM-4 open, NM-5 a note. */
async function ledger(db: Database): Promise<number> {
  const runId = await createRun(db);
  await insertFindings(db, runId, [
    finding("fixed"),
    finding("dismissed"),
    finding("withdrawn"),
    finding("open"),
    finding("note", { status: "note" }),
  ]);
  await updateFinding(db, runId, 1, { status: "fix-pushed" }, { actor: "fixer" });
  await updateFinding(db, runId, 1, { status: "fixed" }, { kind: "confirmed", actor: "verifier" });
  await updateFinding(db, runId, 2, { status: "dismissed", dismissReason: "intended" }, { actor: "maintainer" });
  await updateFinding(db, runId, 3, { status: "withdrawn", ruling: "withdrawn" }, { kind: "withdrawn" });
  await updateFinding(db, runId, 3, { rulingConfirmation: "confirmed" }, { kind: "confirmed", actor: "maintainer" });
  return runId;
}

describe.each(kinds)("finding outcomes on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("decides fixed, dismissed and withdrawn when they happen, at the event that decided each; open findings and notes have none", async () => {
    const db = database.handle.db;
    const runId = await ledger(db);
    expect(await outcomes(db, runId)).toEqual({
      1: { outcome: "fixed", at: await eventAt(db, runId, 1, ["confirmed"]) },
      2: { outcome: "dismissed", at: await eventAt(db, runId, 2, ["dismissed"]) },
      3: { outcome: "withdrawn", at: await eventAt(db, runId, 3, ["confirmed"]) },
      4: { outcome: null, at: undefined },
      5: { outcome: null, at: undefined },
    });
  });

  it("a fixed finding raised again has no outcome until it is decided again", async () => {
    const db = database.handle.db;
    const runId = await ledger(db);
    await updateFinding(db, runId, 1, { status: "open" }, { actor: "reviewer" });
    expect((await outcomes(db, runId))[1]).toEqual({ outcome: null, at: undefined });
    await updateFinding(db, runId, 1, { status: "fixed" }, { actor: "reviewer" });
    expect((await outcomes(db, runId))[1]).toEqual({ outcome: "fixed", at: await eventAt(db, runId, 1, ["fixed"]) });
  });

  it("a merge leaves what is still open at merge, at the merge's time; decided ones keep theirs", async () => {
    const db = database.handle.db;
    const runId = await ledger(db);
    const before = await outcomes(db, runId);
    const mergedAt = new Date("2031-05-06T07:08:09.000Z");
    await updateRun(db, runId, { state: "closed", mergedAt, mergedBy: "maintainer" });
    expect(await outcomes(db, runId)).toEqual({
      ...before,
      4: { outcome: "open-at-merge", at: mergedAt.toISOString() },
    });
  });

  it("closing unmerged abandons what is open, at the close; opening again takes it back", async () => {
    const db = database.handle.db;
    const runId = await ledger(db);
    await updateRun(db, runId, { state: "closed" });
    const closedAt = (await getRun(db, runId))!.updatedAt;
    const after = await outcomes(db, runId);
    expect(after[4]).toEqual({ outcome: "abandoned", at: closedAt.toISOString() });
    expect(after[5]).toEqual({ outcome: null, at: undefined });
    await updateRun(db, runId, { state: "open" });
    expect((await outcomes(db, runId))[4]).toEqual({ outcome: null, at: undefined });
  });

  it("the migration back-fills existing rows exactly as the live rule decides them", async () => {
    const db = database.handle.db;
    const merged = await ledger(db);
    await updateRun(db, merged, { state: "closed", mergedAt: new Date("2031-01-01T00:00:00Z") });
    const closed = await ledger(db);
    await updateRun(db, closed, { state: "closed" });
    const open = await ledger(db);
    const live = [await outcomes(db, merged), await outcomes(db, closed), await outcomes(db, open)];

    await db.execute(sql`update findings set outcome = null, outcome_at = null`);
    const migration = readFileSync(new URL("../../drizzle/0016_finding_outcomes.sql", import.meta.url), "utf8");
    const backfill = migration.split("--> statement-breakpoint").at(-1)!;
    expect(backfill).toContain("UPDATE findings");
    await database.handle.executeSql(backfill);
    expect([await outcomes(db, merged), await outcomes(db, closed), await outcomes(db, open)]).toEqual(live);
  });
});
