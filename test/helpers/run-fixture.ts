import type { Database } from "../../src/db/database.js";
import { upsertRun } from "../../src/db/runs.js";

let nextPr = 1;

/** A run row for a made-up PR (each call a new PR). */
export async function createRun(db: Database): Promise<number> {
  const prNumber = nextPr++;
  const run = await upsertRun(db, {
    installationId: 1,
    repositoryId: 4242,
    repositoryFullName: "octo/repo",
    cloneUrl: "https://github.com/octo/repo.git",
    prNumber,
    baseRef: "main",
    baseSha: "a".repeat(40),
    headRef: `feature-${prNumber}`,
    headSha: "b".repeat(40),
  });
  return run.id;
}
