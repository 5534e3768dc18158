import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listFindingEvents, recordFindingEvents } from "../../src/db/finding-events.js";
import { insertFindings, listFindings, updateFinding, type NewFinding } from "../../src/db/findings.js";
import { startTurn } from "../../src/db/turns.js";
import { createRun } from "../helpers/run-fixture.js";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../helpers/test-database.js";

const kinds = await databaseKinds();

function finding(title: string, extra: Partial<NewFinding> = {}): NewFinding {
  return { fingerprint: title, severity: "warning", action: "auto-fix", title, body: `${title}.`, ...extra };
}

describe.each(kinds)("finding events on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("records each finding's life with the change that makes it, oldest first", async () => {
    const db = database.handle.db;
    const runId = await createRun(db);
    const turnId = await startTurn(db, {
      runId,
      role: "reviewer",
      trigger: "opened",
      headSha: "b".repeat(40),
      agent: "fake",
    });
    const [a, b] = await insertFindings(db, runId, [
      finding("leak", { introducedTurnId: turnId }),
      finding("style", { status: "note", introducedTurnId: turnId }),
    ]);
    await recordFindingEvents(db, runId, [{ findingNumber: a!.number, kind: "restated", actor: "reviewer", turnId }]);
    await updateFinding(db, runId, a!.number, { status: "fix-pushed" }, { actor: "fixer" });
    await updateFinding(
      db,
      runId,
      a!.number,
      { status: "open", verification: "refuted" },
      { kind: "refuted", actor: "verifier", detail: "still leaks" },
    );
    // no status change and no kind: no event
    await updateFinding(db, runId, a!.number, { commentId: 99, reviewId: 7 });
    await updateFinding(db, runId, a!.number, { status: "open" }, { actor: "someone" });
    await updateFinding(
      db,
      runId,
      a!.number,
      { status: "dismissed", dismissReason: "intended" },
      { actor: "maintainer", detail: "intended" },
    );
    await updateFinding(db, runId, a!.number, { status: "open" }, { actor: "reviewer", turnId });
    await updateFinding(db, runId, b!.number, { status: "open" }, { kind: "raised", actor: "reviewer", turnId });
    // a finding that does not exist records nothing
    await updateFinding(db, runId, 99, { status: "fixed" });

    const events = await listFindingEvents(db, runId);
    expect(events.map((e) => [e.findingNumber, e.kind, e.actor, e.turnId, e.detail])).toEqual([
      [a!.number, "raised", "reviewer", turnId, null],
      [a!.number, "restated", "reviewer", turnId, null],
      [a!.number, "fix-pushed", "fixer", null, null],
      [a!.number, "refuted", "verifier", null, "still leaks"],
      [a!.number, "dismissed", "maintainer", null, "intended"],
      [a!.number, "reopened", "reviewer", turnId, null],
      [b!.number, "noted", "reviewer", turnId, null],
      [b!.number, "raised", "reviewer", turnId, null],
    ]);
    expect((await listFindingEvents(db, runId, b!.number)).map((e) => e.kind)).toEqual(["noted", "raised"]);
    const after = await listFindings(db, runId);
    expect(after.map((f) => [f.number, f.status, f.commentId])).toEqual([
      [a!.number, "open", 99],
      [b!.number, "open", null],
    ]);
  });
});
