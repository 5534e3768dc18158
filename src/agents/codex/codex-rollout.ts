import { lstat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import type { CodexTokenTotals } from "./codex-events.js";
import { listHomeDir, readHomeFile, writeHomeFile } from "../sandbox/agent-home-files.js";

/**
 * Codex keeps a thread as one rollout file, `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread_id>.jsonl`,
 * appended to by every turn; a rollout copied into another CODEX_HOME resumes there.
 */

const ROLLOUT_RELATIVE = /^sessions\/\d{4}\/\d{2}\/\d{2}\/rollout-[A-Za-z0-9T:._-]+\.jsonl$/;
/** Thread ids codex mints (UUIDs) and names it accepts: nothing that could be read as a path or a flag. */
export const THREAD_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

/** The rollout file of a thread under a CODEX_HOME, newest day first; undefined when there is none. */
export async function findRollout(codexHome: string, threadId: string): Promise<string | undefined> {
  if (!THREAD_ID.test(threadId)) return undefined;
  const suffix = `-${threadId}.jsonl`;
  const root = join(codexHome, "sessions");
  // Real directories and regular files only: a linked dir or a FIFO the agent planted is not walked into.
  const dirs = async (dir: string) => (await listHomeDir(codexHome, dir)).dirs.sort().reverse();
  for (const year of await dirs(root)) {
    for (const month of await dirs(join(root, year))) {
      for (const day of await dirs(join(root, year, month))) {
        const dir = join(root, year, month, day);
        const { files } = await listHomeDir(codexHome, dir);
        const hit = files
          .sort()
          .reverse()
          .find((name) => name.startsWith("rollout-") && name.endsWith(suffix));
        if (hit) return join(dir, hit);
      }
    }
  }
  return undefined;
}

/** The thread's token totals so far: the last `token_count` event of its rollout (zero when none). */
export async function readRolloutTotals(codexHome: string, path: string): Promise<CodexTokenTotals> {
  const content = await readHomeFile(codexHome, path);
  if (!content) return { input: 0, output: 0 }; // missing, too big, or not a regular file: the caller falls back
  const lines = content.toString("utf8").split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (!line.includes('"token_count"')) continue;
    try {
      const entry = JSON.parse(line) as {
        type?: string;
        payload?: { type?: string; info?: { total_token_usage?: Record<string, unknown> } | null };
      };
      const total = entry.payload?.type === "token_count" ? entry.payload.info?.total_token_usage : undefined;
      if (total) {
        return {
          input: typeof total.input_tokens === "number" ? total.input_tokens : 0,
          output: typeof total.output_tokens === "number" ? total.output_tokens : 0,
        };
      }
    } catch {
      // a torn line: look further back
    }
  }
  return { input: 0, output: 0 };
}

const MAGIC = "no-mistakes/codex-rollout@1";

/** Exported state: one JSON header line (format, thread id, path under CODEX_HOME), then the rollout bytes. */
export async function packRollout(codexHome: string, path: string, threadId: string): Promise<Uint8Array | undefined> {
  const content = await readHomeFile(codexHome, path);
  if (!content) return undefined; // a link or something else the agent planted: not a rollout to keep
  const rel = relative(codexHome, path).split(sep).join("/");
  const header = Buffer.from(`${JSON.stringify({ format: MAGIC, threadId, path: rel })}\n`, "utf8");
  return Buffer.concat([header, content]);
}

export interface PackedRollout {
  threadId: string;
  /** Relative to CODEX_HOME, "/"-separated. */
  path: string;
  content: Buffer;
}

/** Reads exported state; undefined when it is not a codex rollout of this thread (or its path is unsafe). */
export function unpackRollout(state: Uint8Array, threadId: string): PackedRollout | undefined {
  const buffer = Buffer.from(state.buffer, state.byteOffset, state.byteLength);
  const newline = buffer.indexOf(0x0a);
  if (newline < 0) return undefined;
  try {
    const header = JSON.parse(buffer.subarray(0, newline).toString("utf8")) as {
      format?: unknown;
      threadId?: unknown;
      path?: unknown;
    };
    if (header.format !== MAGIC || header.threadId !== threadId || typeof header.path !== "string") return undefined;
    if (!ROLLOUT_RELATIVE.test(header.path) || !header.path.endsWith(`-${threadId}.jsonl`)) return undefined;
    return { threadId, path: header.path, content: buffer.subarray(newline + 1) };
  } catch {
    return undefined; // not our format
  }
}

/** Writes a packed rollout into a CODEX_HOME (same relative path) unless the thread already has one there. */
export async function restoreRollout(codexHome: string, packed: PackedRollout): Promise<boolean> {
  if (await findRollout(codexHome, packed.threadId)) return false;
  const target = join(codexHome, ...packed.path.split("/"));
  await writeHomeFile(codexHome, target, packed.content); // a fresh file renamed into place: never through a planted link
  return true;
}

/** A real directory (a link to one is not). */
export async function isDirectory(path: string): Promise<boolean> {
  return lstat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}
