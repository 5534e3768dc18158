import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "./database.js";
import type { FindingChange } from "./finding-events.js";
import { refreshFindingOutcomes } from "./finding-outcomes.js";
import { findingEvents, findings, type Finding } from "./schema.js";

export type NewFinding = Omit<typeof findings.$inferInsert, "id" | "runId" | "number" | "createdAt" | "updatedAt">;

export async function listFindings(db: Database, runId: number): Promise<Finding[]> {
  return db.select().from(findings).where(eq(findings.runId, runId)).orderBy(asc(findings.number));
}

/**
 * Inserts findings with the run's next stable numbers (NM-<n>); one turn per run at a time. Each gets its
 * first event in the same transaction: `raised`, or `noted` for a note, at the turn that introduced it.
 */
export async function insertFindings(
  db: Database,
  runId: number,
  rows: NewFinding[],
  change: Pick<FindingChange, "actor"> = { actor: "reviewer" },
): Promise<Finding[]> {
  if (rows.length === 0) return [];
  return db.transaction(async (tx) => {
    const [{ max }] = (await tx
      .select({ max: sql<number>`coalesce(max(${findings.number}), 0)::int` })
      .from(findings)
      .where(eq(findings.runId, runId))) as [{ max: number }];
    const inserted = await tx
      .insert(findings)
      .values(rows.map((row, i) => ({ ...row, runId, number: max + i + 1 })))
      .returning();
    await tx.insert(findingEvents).values(
      inserted.map((f) => ({
        runId,
        findingNumber: f.number,
        kind: f.status === "note" ? "noted" : "raised",
        actor: change.actor ?? null,
        turnId: f.introducedTurnId,
      })),
    );
    await refreshFindingOutcomes(tx, runId);
    return inserted;
  });
}

/**
 * Changes a finding. A change that names an event (`change.kind`) or moves the status is recorded in
 * finding_events by the same statement: the old row is read and locked in the UPDATE's FROM, so the
 * event's kind (the new status, `reopened` for back to open; nothing when the status did not move)
 * is decided against the status it really replaced. The finding's outcome is recomputed in the same
 * transaction.
 */
export async function updateFinding(
  db: Database,
  runId: number,
  number: number,
  patch: Partial<NewFinding>,
  change: FindingChange = {},
): Promise<void> {
  const where = and(eq(findings.runId, runId), eq(findings.number, number));
  if (change.kind === undefined && patch.status === undefined) {
    await db
      .update(findings)
      .set({ ...patch, updatedAt: sql`now()` })
      .where(where);
    return;
  }
  const old = db
    .select({ id: findings.id, status: findings.status })
    .from(findings)
    .where(where)
    .for("update")
    .as("old");
  const update = db
    .update(findings)
    .set({ ...patch, updatedAt: sql`now()` })
    .from(old)
    .where(eq(findings.id, old.id))
    .returning({ before: sql`${old.status}`.as("before"), after: sql`${findings.status}`.as("after") });
  const explicit = change.kind ?? null;
  const recorded = sql`
    with changed as (${update.getSQL()}),
    event as (
      select coalesce(${explicit}::text,
        case when after is distinct from before then (case when after = 'open' then 'reopened' else after end) end) as kind
      from changed
    )
    insert into ${findingEvents} (run_id, finding_number, kind, actor, turn_id, detail, url)
    select ${runId}, ${number}, kind, ${change.actor ?? null}, ${change.turnId ?? null}::int, ${change.detail ?? null}, ${change.url ?? null}
    from event where kind is not null`;
  await db.transaction(async (tx) => {
    await tx.execute(recorded);
    await refreshFindingOutcomes(tx, runId, number);
  });
}
