import { rm } from "node:fs/promises";
import { join } from "node:path";
import { isHomeDir, readHomeFile, writeHomeFile } from "../sandbox/agent-home-files.js";

/**
 * OpenCode keeps its sessions in one SQLite database, `$XDG_DATA_HOME/opencode/opencode.db` (with its
 * write-ahead log beside it). A (run, role)'s home holds only that role's current session chain (a fresh
 * session starts a fresh database), so the database and its log are the session's exported state: copied
 * into an empty home, the session resumes there.
 */

/** Session ids OpenCode mints (`ses_…`): nothing that could be read as a path or a flag. */
export const OPENCODE_SESSION_ID = /^ses_[A-Za-z0-9]{8,64}$/;
const FILES = ["opencode.db", "opencode.db-wal"] as const;
const SQLITE_HEADER = Buffer.from("SQLite format 3\0", "latin1");
const MAGIC = "no-mistakes/opencode-db@1";

/** The folder of the database under an XDG_DATA_HOME. */
export function openCodeDbDir(dataHome: string): string {
  return join(dataHome, "opencode");
}

/**
 * Removes the database, its log and shared memory (a fresh session starts from none) — only from a real
 * folder inside the home: a planted link is never followed out of it.
 */
export async function removeOpenCodeDb(home: string, dataHome: string): Promise<void> {
  const dir = openCodeDbDir(dataHome);
  if (!(await isHomeDir(home, dir))) {
    await rm(dir, { force: true, recursive: true }); // a link or a file where the folder belongs: rm never follows it
    return;
  }
  await Promise.all([...FILES, "opencode.db-shm"].map((name) => rm(join(dir, name), { force: true, recursive: true })));
}

/** The database files as they are now; undefined when there is no readable database holding the session. */
async function readDb(home: string, dataHome: string, sessionId: string): Promise<Buffer[] | undefined> {
  const dir = openCodeDbDir(dataHome);
  const [db, wal] = await Promise.all(FILES.map((name) => readHomeFile(home, join(dir, name))));
  if (!db || !db.subarray(0, SQLITE_HEADER.length).equals(SQLITE_HEADER)) return undefined;
  const parts = [db, wal ?? Buffer.alloc(0)];
  // ids are stored as text: a database that never saw the session does not hold its bytes
  if (!parts.some((part) => part.includes(sessionId, 0, "latin1"))) return undefined;
  return parts;
}

/** Whether the home's database holds the session (then nothing is imported over it). */
export async function hasOpenCodeSession(home: string, dataHome: string, sessionId: string): Promise<boolean> {
  return (await readDb(home, dataHome, sessionId)) !== undefined;
}

/** Exported state: one JSON header line (format, session id, file sizes), then the files' bytes. */
export async function packOpenCodeDb(
  home: string,
  dataHome: string,
  sessionId: string,
): Promise<Uint8Array | undefined> {
  if (!OPENCODE_SESSION_ID.test(sessionId)) return undefined;
  const parts = await readDb(home, dataHome, sessionId);
  if (!parts) return undefined;
  const header = { format: MAGIC, sessionId, sizes: parts.map((p) => p.length) };
  return Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`, "utf8"), ...parts]);
}

/** The files of exported state; undefined when it is not an OpenCode database holding this session. */
export function unpackOpenCodeDb(state: Uint8Array, sessionId: string): Buffer[] | undefined {
  const buffer = Buffer.from(state.buffer, state.byteOffset, state.byteLength);
  const newline = buffer.indexOf(0x0a);
  if (newline < 0 || !OPENCODE_SESSION_ID.test(sessionId)) return undefined;
  let header: { format?: unknown; sessionId?: unknown; sizes?: unknown };
  try {
    header = JSON.parse(buffer.subarray(0, newline).toString("utf8")) as typeof header;
  } catch {
    return undefined; // not our format
  }
  const sizes = header.sizes;
  if (header.format !== MAGIC || header.sessionId !== sessionId || !Array.isArray(sizes)) return undefined;
  if (sizes.length !== FILES.length || !sizes.every((s) => Number.isSafeInteger(s) && (s as number) >= 0))
    return undefined;
  const body = buffer.subarray(newline + 1);
  if ((sizes as number[]).reduce((a, b) => a + b, 0) !== body.length) return undefined;
  const parts: Buffer[] = [];
  let at = 0;
  for (const size of sizes as number[]) {
    parts.push(body.subarray(at, at + size));
    at += size;
  }
  if (!parts[0]!.subarray(0, SQLITE_HEADER.length).equals(SQLITE_HEADER)) return undefined;
  return parts;
}

/** Writes unpacked files into the home's data dir, replacing whatever database is there. */
export async function restoreOpenCodeDb(home: string, dataHome: string, parts: Buffer[]): Promise<void> {
  await removeOpenCodeDb(home, dataHome);
  const dir = openCodeDbDir(dataHome);
  for (const [i, name] of FILES.entries()) {
    const part = parts[i]!;
    if (i > 0 && part.length === 0) continue;
    await writeHomeFile(home, join(dir, name), part); // a fresh file renamed into place: never through a planted link
  }
}
