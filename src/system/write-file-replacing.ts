import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * Writes `path` whole, never in part: the content goes to a fresh file beside it, which is then renamed
 * over `path`. A reader in another process sees the old file or the new one, never an empty or cut-off
 * one (a plain `writeFile` truncates first, and a process killed mid-write leaves the cut-off file).
 */
export async function writeFileReplacing(path: string, content: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(temp, content);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
