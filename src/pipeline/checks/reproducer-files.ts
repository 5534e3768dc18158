import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, normalize } from "node:path";
import type { Reproducer } from "../../db/schema.js";

/** At most this many files, and this many bytes in all, per reproducer. */
export const MAX_REPRODUCER_FILES = 20;
export const MAX_REPRODUCER_BYTES = 256 * 1024;

/** Why a reproducer cannot be run as given (its files), or undefined when it can. */
export function reproducerProblem(reproducer: Reproducer): string | undefined {
  if (reproducer.command.trim() === "") return "it has no command";
  if (reproducer.files.length > MAX_REPRODUCER_FILES) return `it adds more than ${MAX_REPRODUCER_FILES} files`;
  const bytes = reproducer.files.reduce((sum, f) => sum + Buffer.byteLength(f.content), 0);
  if (bytes > MAX_REPRODUCER_BYTES) return `its files hold more than ${MAX_REPRODUCER_BYTES / 1024} KiB`;
  for (const { path } of reproducer.files) {
    const clean = normalize(path);
    if (path.startsWith("/") || clean.startsWith("..") || clean === ".")
      return `\`${path}\` is not a path inside the repository`;
    if (clean.split("/").some((part) => part.toLowerCase() === ".git")) return `\`${path}\` is inside .git`;
  }
  return undefined;
}

/** Writes a reproducer's files into `dir` (a folder stacked over the checkout). */
export async function writeReproducerFiles(reproducer: Reproducer, dir: string): Promise<void> {
  for (const file of reproducer.files) {
    const target = join(dir, normalize(file.path));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, file.content);
  }
}
