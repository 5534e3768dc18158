import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addRunCommand, listPendingCommands } from "../../src/db/run-commands.js";
import { createRun } from "../helpers/run-fixture.js";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../helpers/test-database.js";

const kinds = await databaseKinds();

describe.each(kinds)("run_commands on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("records a comment once; an issue comment and a review comment with the same id are two commands", async () => {
    const db = database.handle.db;
    const runId = await createRun(db);
    const fix = { kind: "fix" as const, findings: "all" as const };
    const argue = { kind: "argue" as const, threadId: 5, finding: 1, body: "intended", byWriter: true };
    expect(await addRunCommand(db, { runId, commentId: 777, author: "maintainer", command: fix })).toBe(true);
    expect(await addRunCommand(db, { runId, commentId: 777, author: "maintainer", command: fix })).toBe(false); // a redelivery
    expect(
      await addRunCommand(db, { runId, commentId: 777, source: "review_comment", author: "author", command: argue }),
    ).toBe(true);
    expect(
      (await listPendingCommands(db, runId)).map((c) => [c.source, c.commentId, (c.command as { kind: string }).kind]),
    ).toEqual([
      ["issue_comment", 777, "fix"],
      ["review_comment", 777, "argue"],
    ]);
  });
});
