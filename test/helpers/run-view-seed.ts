import { eq } from "drizzle-orm";
import type { Database } from "../../src/db/database.js";
import {
  executions,
  findingEvents,
  findings,
  runAgentSessions,
  runCommands,
  runs,
  turns,
} from "../../src/db/schema.js";

export interface SeedRun {
  repositoryId: number;
  fullName: string;
  prNumber: number;
  title?: string;
  author?: string;
  state?: "open" | "closed" | "paused";
  draft?: boolean;
  headSha?: string;
  lastReviewedSha?: string | null;
  updatedAt?: Date;
}

const SHA = (n: number) => n.toString(16).padStart(40, "0");

/** Run rows written directly (the run view reads what the pipeline wrote); their ids, in order. */
export async function seedRuns(db: Database, rows: SeedRun[]): Promise<number[]> {
  const ids: number[] = [];
  // a bounded number of parameters per statement
  for (let i = 0; i < rows.length; i += 500) {
    const inserted = await db
      .insert(runs)
      .values(
        rows.slice(i, i + 500).map((r) => ({
          installationId: 1,
          repositoryId: r.repositoryId,
          repositoryFullName: r.fullName,
          cloneUrl: `https://github.com/${r.fullName}.git`,
          prNumber: r.prNumber,
          title: r.title ?? `PR ${r.prNumber}`,
          authorLogin: r.author ?? "dev",
          baseRef: "main",
          baseSha: SHA(1),
          headRef: `feature-${r.prNumber}`,
          headSha: r.headSha ?? SHA(r.prNumber + 1000),
          lastReviewedSha: r.lastReviewedSha ?? null,
          state: r.state ?? "open",
          draft: r.draft ?? false,
          ...(r.updatedAt ? { updatedAt: r.updatedAt, createdAt: r.updatedAt } : {}),
        })),
      )
      .returning({ id: runs.id });
    ids.push(...inserted.map((r) => r.id));
  }
  return ids;
}

export type SeedTurn = Partial<typeof turns.$inferInsert> & { startedAt: Date };

export async function seedTurns(db: Database, runId: number, rows: SeedTurn[]): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 500) {
    const inserted = await db
      .insert(turns)
      .values(
        rows.slice(i, i + 500).map((t) => ({
          role: "reviewer",
          trigger: "synchronize",
          headSha: SHA(7),
          agent: "claude",
          status: "succeeded",
          ...t,
          runId,
        })),
      )
      .returning({ id: turns.id });
    ids.push(...inserted.map((r) => r.id));
  }
  return ids;
}

export type SeedFinding = Partial<typeof findings.$inferInsert> & { number: number };

export async function seedFindings(db: Database, runId: number, rows: SeedFinding[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    await db.insert(findings).values(
      rows.slice(i, i + 500).map((f) => ({
        fingerprint: `fp-${f.number}`,
        severity: "warning",
        action: "auto-fix",
        title: `Finding ${f.number}`,
        body: `What is wrong in ${f.number}.`,
        path: "src/app.ts",
        line: f.number,
        ...f,
        runId,
      })),
    );
  }
}

export type SeedEvent = Partial<typeof findingEvents.$inferInsert> & { findingNumber: number; kind: string };

export async function seedEvents(db: Database, runId: number, rows: SeedEvent[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500)
    await db.insert(findingEvents).values(rows.slice(i, i + 500).map((e) => ({ ...e, runId })));
}

export async function seedSession(
  db: Database,
  row: Omit<typeof runAgentSessions.$inferInsert, "agent"> & { agent?: string },
): Promise<void> {
  await db.insert(runAgentSessions).values({ agent: "claude", ...row });
}

export async function seedCommands(
  db: Database,
  runId: number,
  rows: (Omit<typeof runCommands.$inferInsert, "runId" | "command"> & { command?: unknown })[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(runCommands).values(rows.map((c) => ({ command: { kind: "fix" }, ...c, runId })));
}

export type SeedExecution = Partial<Omit<typeof executions.$inferInsert, "findingId">> & {
  /** The finding whose reproducer ran, by its number in the run. */
  findingNumber?: number;
};

/** Execution rows as src/pipeline/checks/record-execution.ts writes them; their ids, in order. */
export async function seedExecutions(db: Database, runId: number, rows: SeedExecution[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const ids = await db
    .select({ id: findings.id, number: findings.number })
    .from(findings)
    .where(eq(findings.runId, runId));
  const idOf = new Map(ids.map((f) => [f.number, f.id]));
  const inserted = await db
    .insert(executions)
    .values(
      rows.map(({ findingNumber, ...e }) => ({
        headSha: SHA(7),
        kind: findingNumber === undefined ? "check" : "reproducer",
        phase: "review",
        name: "test",
        command: "npm test",
        outcome: "passed",
        exitCode: 0,
        durationMs: 1000,
        outputDigest: "0".repeat(64),
        ...e,
        findingId: findingNumber === undefined ? null : idOf.get(findingNumber)!,
        runId,
      })),
    )
    .returning({ id: executions.id });
  return inserted.map((r) => r.id);
}
