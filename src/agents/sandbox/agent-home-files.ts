import { constants } from "node:fs";
import { mkdir, open, realpath } from "node:fs/promises";
import { dirname, sep } from "node:path";

/**
 * The agent writes its own home inside the sandbox, so the app — which reads and writes that home
 * OUTSIDE the sandbox to export and restore sessions — must never follow a link the agent planted
 * there: a transcript replaced by a link to the app's .env would otherwise be exported into the
 * database and handed back to the agent on the next machine.
 */

/** Whether `path` (resolved) lies inside `root` (resolved). */
async function inside(root: string, path: string): Promise<boolean> {
  const [realRoot, realPath] = await Promise.all([realpath(root), realpath(path)]);
  return realPath === realRoot || realPath.startsWith(realRoot + sep);
}

/** Reads a regular file of the agent home: never through a link, never from outside the home; undefined otherwise. */
export async function readHomeFile(home: string, path: string): Promise<Buffer | undefined> {
  if (!(await inside(home, dirname(path)).catch(() => false))) return undefined;
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => undefined);
  if (!handle) return undefined;
  try {
    if (!(await handle.stat()).isFile()) return undefined;
    return await handle.readFile();
  } finally {
    await handle.close();
  }
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
