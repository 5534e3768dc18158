import { and, asc, eq } from "drizzle-orm";
import type { Database } from "./database.js";
import { findingEvents, type FindingEvent } from "./schema.js";

/**
 * Who did something to a finding, and where: passed along with the change that records it. `kind`, when
 * given, names the event; otherwise a status change names it (the new status; back to open is `reopened`).
 */
export interface FindingChange {
  kind?: string;
  /** A GitHub login, or the role that did it (reviewer, fixer, verifier). */
  actor?: string | null;
  turnId?: number | null;
  /** The reason given, as plain untrusted text. */
  detail?: string | null;
  /** Where on the PR's GitHub page it happened, relative to the PR's address (a `pullRequestAnchor`). */
  url?: string | null;
}

export interface NewFindingEvent extends FindingChange {
  findingNumber: number;
  kind: string;
}

/** Records events that come with no change to the finding's row (a restatement); one statement. */
export async function recordFindingEvents(db: Database, runId: number, events: NewFindingEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db.insert(findingEvents).values(
    events.map((e) => ({
      runId,
      findingNumber: e.findingNumber,
      kind: e.kind,
      actor: e.actor ?? null,
      turnId: e.turnId ?? null,
      detail: e.detail ?? null,
      url: e.url ?? null,
    })),
  );
}

/** A run's finding events, by finding and then oldest first; one finding's when `findingNumber` is given. */
export async function listFindingEvents(db: Database, runId: number, findingNumber?: number): Promise<FindingEvent[]> {
  return db
    .select()
    .from(findingEvents)
    .where(
      and(
        eq(findingEvents.runId, runId),
        findingNumber === undefined ? undefined : eq(findingEvents.findingNumber, findingNumber),
      ),
    )
    .orderBy(asc(findingEvents.findingNumber), asc(findingEvents.id));
}
