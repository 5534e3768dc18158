import { and, eq, sql } from "drizzle-orm";
import type { Database } from "./database.js";
import { refreshFindingOutcomes } from "./finding-outcomes.js";
import { runs, type Run } from "./schema.js";

export type RunIdentity = Pick<
  Run,
  | "installationId"
  | "repositoryId"
  | "repositoryFullName"
  | "cloneUrl"
  | "prNumber"
  | "baseRef"
  | "baseSha"
  | "headRef"
  | "headSha"
> &
  Partial<
    Pick<
      Run,
      | "headRepoFullName"
      | "headCloneUrl"
      | "maintainerCanModify"
      | "draft"
      | "title"
      | "body"
      | "authorLogin"
      | "prUpdatedAt"
    >
  >;

/**
 * The PR's one run: created on first sight, refreshed (refs, SHAs) on later events — but never by an
 * event older than the newest one applied (GitHub does not promise delivery order; under load an older
 * push's webhook can arrive last).
 */
export async function upsertRun(db: Database, pr: RunIdentity): Promise<Run> {
  const [row] = await db
    .insert(runs)
    .values(pr)
    .onConflictDoUpdate({
      target: [runs.repositoryId, runs.prNumber],
      set: {
        installationId: pr.installationId,
        repositoryFullName: pr.repositoryFullName,
        cloneUrl: pr.cloneUrl,
        baseRef: pr.baseRef,
        baseSha: pr.baseSha,
        headRef: pr.headRef,
        headSha: pr.headSha,
        headRepoFullName: pr.headRepoFullName ?? null,
        headCloneUrl: pr.headCloneUrl ?? null,
        maintainerCanModify: pr.maintainerCanModify ?? false,
        draft: pr.draft ?? false,
        title: pr.title ?? "",
        body: pr.body ?? "",
        authorLogin: pr.authorLogin ?? "",
        prUpdatedAt: pr.prUpdatedAt ?? null,
        updatedAt: sql`now()`,
      },
      setWhere: sql`${runs.prUpdatedAt} is null or excluded.pr_updated_at is null or excluded.pr_updated_at >= ${runs.prUpdatedAt}`,
    })
    .returning();
  if (row) return row;
  // an older event: keep the run as it is
  return (await findRun(db, pr.repositoryId, pr.prNumber))!;
}

export async function getRun(db: Database, id: number): Promise<Run | undefined> {
  const rows = await db.select().from(runs).where(eq(runs.id, id)).limit(1);
  return rows[0];
}

/** Changes a run; a change of its state or merge recomputes its findings' outcomes in the same transaction. */
export async function updateRun(
  db: Database,
  id: number,
  patch: Partial<Omit<Run, "id" | "createdAt">>,
): Promise<void> {
  const change = (d: Database) =>
    d
      .update(runs)
      .set({ ...patch, updatedAt: sql`now()` })
      .where(eq(runs.id, id));
  if (patch.state === undefined && patch.mergedAt === undefined) {
    await change(db);
    return;
  }
  await db.transaction(async (tx) => {
    await change(tx);
    await refreshFindingOutcomes(tx, id);
  });
}

export async function findRun(db: Database, repositoryId: number, prNumber: number): Promise<Run | undefined> {
  const rows = await db
    .select()
    .from(runs)
    .where(and(eq(runs.repositoryId, repositoryId), eq(runs.prNumber, prNumber)))
    .limit(1);
  return rows[0];
}

export async function findRunByHead(db: Database, repositoryId: number, headSha: string): Promise<Run | undefined> {
  const rows = await db
    .select()
    .from(runs)
    .where(and(eq(runs.repositoryId, repositoryId), eq(runs.headSha, headSha)))
    .limit(1);
  return rows[0];
}
