import { desc } from "drizzle-orm";
import type { Database } from "./database.js";
import { refusals, type Refusal } from "./schema.js";

export interface NewRefusal {
  /** command | push | review | ... */
  kind: string;
  repositoryFullName?: string | null;
  prNumber?: number | null;
  actor?: string | null;
  /** Short and free of secrets: the operator page shows it as is. */
  reason: string;
}

const MAX_REASON = 500;

/** Something the app refused, kept for the operator page. */
export async function recordRefusal(db: Database, refusal: NewRefusal): Promise<void> {
  await db.insert(refusals).values({
    kind: refusal.kind,
    repositoryFullName: refusal.repositoryFullName ?? null,
    prNumber: refusal.prNumber ?? null,
    actor: refusal.actor ?? null,
    reason: refusal.reason.slice(0, MAX_REASON),
  });
}

/** The newest refusals first. */
export async function listRefusals(db: Database, limit = 50): Promise<Refusal[]> {
  return db.select().from(refusals).orderBy(desc(refusals.createdAt), desc(refusals.id)).limit(limit);
}
