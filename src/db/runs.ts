import { eq, sql } from "drizzle-orm";
import type { Database } from "./database.js";
import { runs, type Run } from "./schema.js";

export type RunIdentity = Pick<
  Run,
  "installationId" | "repositoryId" | "repositoryFullName" | "prNumber" | "baseRef" | "baseSha" | "headRef" | "headSha"
> &
  Partial<Pick<Run, "headRepoFullName" | "headCloneUrl" | "maintainerCanModify" | "draft">>;

/** The PR's one run: created on first sight, refreshed (refs, SHAs) on every later event. */
export async function upsertRun(db: Database, pr: RunIdentity): Promise<Run> {
  const [row] = await db
    .insert(runs)
    .values(pr)
    .onConflictDoUpdate({
      target: [runs.repositoryId, runs.prNumber],
      set: {
        installationId: pr.installationId,
        repositoryFullName: pr.repositoryFullName,
        baseRef: pr.baseRef,
        baseSha: pr.baseSha,
        headRef: pr.headRef,
        headSha: pr.headSha,
        headRepoFullName: pr.headRepoFullName ?? null,
        headCloneUrl: pr.headCloneUrl ?? null,
        maintainerCanModify: pr.maintainerCanModify ?? false,
        draft: pr.draft ?? false,
        updatedAt: sql`now()`,
      },
    })
    .returning();
  return row!;
}

export async function getRun(db: Database, id: number): Promise<Run | undefined> {
  const rows = await db.select().from(runs).where(eq(runs.id, id)).limit(1);
  return rows[0];
}
