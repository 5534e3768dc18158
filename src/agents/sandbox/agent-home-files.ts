import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { lstat, mkdir, open, readdir, realpath, rename, rm, unlink } from "node:fs/promises";
import { basename, dirname, join, sep } from "node:path";

/**
 * Every app-side access to an agent home. The agent writes its home inside the sandbox (and
 * anywhere with AGENT_SANDBOX=off), so what the app finds there may be a link to a host file, a
 * FIFO, a device or a huge file. The app, OUTSIDE the sandbox, never follows a link there, reads
 * only regular files and never more than a cap, never blocks on an open, and writes only through a
 * fresh file of its own renamed into place.
 */

/** The most the app reads of one file of an agent home (a transcript, a rollout); past it the file counts as missing. */
export const HOME_FILE_MAX_BYTES = 64 * 1024 * 1024;

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** Whether `path` (resolved) lies inside `root` (resolved). */
async function inside(root: string, path: string): Promise<boolean> {
  const [realRoot, realPath] = await Promise.all([realpath(root), realpath(path)]);
  return realPath === realRoot || realPath.startsWith(realRoot + sep);
}

/**
 * Reads a regular file of the agent home: never through a link, never from outside the home, never
 * a FIFO or device (opened non-blocking, then checked on the handle), never past `maxBytes`;
 * undefined otherwise — the caller treats it as missing.
 */
export async function readHomeFile(
  home: string,
  path: string,
  maxBytes = HOME_FILE_MAX_BYTES,
): Promise<Buffer | undefined> {
  if (!(await inside(home, dirname(path)).catch(() => false))) return undefined;
  const handle = await open(path, READ_FLAGS).catch(() => undefined);
  if (!handle) return undefined;
  try {
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size > maxBytes) return undefined;
    // The size may grow while it is read: read one byte past the cap at most, and refuse that.
    const buffer = Buffer.alloc(Math.min(stat.size, maxBytes) + 1);
    let filled = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
      if (filled === buffer.length) {
        if (filled > maxBytes) return undefined;
        break;
      }
    }
    return buffer.subarray(0, filled);
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/**
 * Writes a file of the agent home (or of an app-owned directory, `home` then being that directory):
 * a fresh temp file is created O_EXCL|O_NOFOLLOW in a directory verified to be inside `home`, then
 * renamed over `path`. Whatever the agent left at `path` — a link, a FIFO, a directory — is replaced,
 * never written through.
 */
export async function writeHomeFile(home: string, path: string, content: string | Uint8Array, mode = 0o600) {
  const dir = dirname(path);
  await assertHomeDir(home, dir);
  await mkdir(dir, { recursive: true });
  await assertHomeDir(home, dir);
  const temp = join(dir, `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  const handle = await open(temp, CREATE_FLAGS, mode);
  try {
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
  try {
    const there = await lstat(path).catch(() => undefined);
    if (there?.isDirectory()) await rm(path, { recursive: true, force: true }); // rm never follows links inside
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** A directory of the agent home that is really one (not a link) and lies inside it. */
export async function isHomeDir(home: string, path: string): Promise<boolean> {
  const stat = await lstat(path).catch(() => undefined);
  if (!stat?.isDirectory()) return false;
  return inside(home, path).catch(() => false);
}

/**
 * The entries of a directory of the agent home, for a walk: real subdirectories and regular files
 * only (links, FIFOs, sockets and devices are left out); nothing when `dir` is not a real directory
 * inside the home.
 */
export async function listHomeDir(home: string, dir: string): Promise<{ dirs: string[]; files: string[] }> {
  const none = { dirs: [], files: [] };
  if (!(await isHomeDir(home, dir))) return none;
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => undefined);
  if (!entries) return none;
  return {
    dirs: entries.filter((e) => e.isDirectory()).map((e) => e.name),
    files: entries.filter((e) => e.isFile()).map((e) => e.name),
  };
}

/** A file the app owns, bound read-only over its place in the agent home for a sandboxed call. */
export interface AppFile {
  /** In an app-owned directory outside every agent home (the sandbox never shows it). */
  source: string;
  /** Where the CLI reads it, inside the home. */
  target: string;
}

/**
 * Puts the app's own config files in place for a call: each is written into `appDir` (outside the
 * home) and, the same content, at its place in the home — replacing whatever the agent left there,
 * so the bind target is a plain file, and so an unconfined CLI reads it too. The sandbox binds the
 * first read-only over the second: inside, the agent cannot change what the CLI loads.
 */
export async function placeAppFiles(
  home: string,
  appDir: string,
  files: Readonly<Record<string, string>>,
): Promise<AppFile[]> {
  await mkdir(appDir, { recursive: true, mode: 0o700 });
  const placed: AppFile[] = [];
  for (const [name, content] of Object.entries(files)) {
    const source = join(appDir, name);
    const target = join(home, name);
    await writeHomeFile(appDir, source, content);
    await writeHomeFile(home, target, content);
    placed.push({ source, target });
  }
  return placed;
}

/**
 * Throws unless `dir` resolves inside the agent home — checked on its nearest existing ancestor, so
 * it can be called before `mkdir` creates anything: restored sessions are only ever written there.
 */
export async function assertHomeDir(home: string, dir: string): Promise<void> {
  await mkdir(home, { recursive: true }); // the home itself is the app's (after an empty disk it is created here)
  let existing = dir;
  while (!(await exists(existing)) && dirname(existing) !== existing) existing = dirname(existing);
  if (!(await inside(home, existing)))
    throw new Error(`refusing to write outside the agent home: ${dir} leads out of ${home}`);
}

async function exists(path: string): Promise<boolean> {
  return realpath(path).then(
    () => true,
    () => false,
  );
}
