import { and, eq, lte } from "drizzle-orm";
import type { Database } from "./database.js";
import { webSessions, type WebSession } from "./schema.js";

/** The web_sessions table: one row per signed-in browser, keyed by the sha256 of its cookie's value. */
export interface WebSessionStore {
  create(row: { id: string; userId: number; login: string; tokenCiphertext: string; expiresAt: Date }): Promise<void>;
  /** The row when it exists and has not expired; an expired row is deleted on the way. */
  find(id: string, now?: Date): Promise<WebSession | undefined>;
  delete(id: string): Promise<void>;
  /** Deletes every expired row; how many went. */
  deleteExpired(now?: Date): Promise<number>;
}

export function createWebSessionStore(db: Database): WebSessionStore {
  return {
    async create(row) {
      await db.insert(webSessions).values(row);
    },
    async find(id, now = new Date()) {
      const [row] = await db.select().from(webSessions).where(eq(webSessions.id, id)).limit(1);
      if (!row) return undefined;
      if (row.expiresAt.getTime() > now.getTime()) return row;
      await db.delete(webSessions).where(and(eq(webSessions.id, id), lte(webSessions.expiresAt, now)));
      return undefined;
    },
    async delete(id) {
      await db.delete(webSessions).where(eq(webSessions.id, id));
    },
    async deleteExpired(now = new Date()) {
      const gone = await db
        .delete(webSessions)
        .where(lte(webSessions.expiresAt, now))
        .returning({ id: webSessions.id });
      return gone.length;
    },
  };
}
