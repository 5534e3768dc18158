import { join } from "node:path";
import { listHomeDir, readHomeFile, writeHomeFile } from "../sandbox/agent-home-files.js";

/**
 * Gemini CLI 0.61 keeps a session as `~/.gemini/tmp/<slug>/chats/session-<time>-<id8>.jsonl`, its first
 * line naming the session id, and finds the slug of a working directory in `~/.gemini/projects.json`
 * (`{ "projects": { "<cwd>": "<slug>" } }`, the slug being the cwd's base name). A chats file copied into a
 * fresh home under the slug projects.json names for the cwd resumes with the same id. Exports carry the
 * slug and the file's name in a header line; imports put both back and register the cwd.
 */

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEADER_MAGIC = "no-mistakes/gemini-chat";
const SLUG = /^(?!\.\.?$)[A-Za-z0-9._-]{1,200}$/;
const CHAT_FILE = /^session-[A-Za-z0-9._-]{1,200}\.jsonl$/;

interface StateHeader {
  format: typeof HEADER_MAGIC;
  version: 1;
  slug: string;
  file: string;
}

export function isGeminiSessionId(id: string): boolean {
  return SESSION_ID.test(id);
}

/** The `.gemini` folder of a CLI home. */
function dotGemini(home: string): string {
  return join(home, ".gemini");
}

/** The slug projects.json gives `cwd`, when it names one. */
async function projectSlug(home: string, cwd: string): Promise<string | undefined> {
  const projects = await readProjects(home);
  const slug = projects[cwd];
  return typeof slug === "string" && SLUG.test(slug) ? slug : undefined;
}

async function readProjects(home: string): Promise<Record<string, unknown>> {
  const raw = await readHomeFile(home, join(dotGemini(home), "projects.json"), 4 * 1024 * 1024);
  try {
    const value = JSON.parse(raw?.toString("utf8") ?? "{}") as { projects?: unknown };
    return value.projects && typeof value.projects === "object" ? (value.projects as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The session's chats file: in the cwd's slug first, then any slug. */
export async function findGeminiChat(
  home: string,
  sessionId: string,
  cwd: string,
): Promise<{ slug: string; file: string } | undefined> {
  if (!isGeminiSessionId(sessionId)) return undefined;
  const tmp = join(dotGemini(home), "tmp");
  const suffix = `-${sessionId.slice(0, 8).toLowerCase()}.jsonl`;
  const preferred = await projectSlug(home, cwd);
  const { dirs } = await listHomeDir(home, tmp);
  const slugs = [...new Set([...(preferred ? [preferred] : []), ...dirs])].filter((slug) => SLUG.test(slug));
  for (const slug of slugs) {
    const chats = join(tmp, slug, "chats");
    const { files } = await listHomeDir(home, chats);
    for (const file of files.filter((name) => CHAT_FILE.test(name) && name.toLowerCase().endsWith(suffix))) {
      if ((await firstSessionId(home, join(chats, file))) === sessionId) return { slug, file };
    }
  }
  return undefined;
}

async function firstSessionId(home: string, path: string): Promise<string | undefined> {
  const head = await readHomeFile(home, path);
  const line = head?.subarray(0, Math.max(0, head.indexOf(0x0a))).toString("utf8") ?? "";
  try {
    const id = (JSON.parse(line) as { sessionId?: unknown }).sessionId;
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}

/** The chats file with a header line naming its slug and file; undefined when there is none. */
export async function exportGeminiSession(
  home: string,
  sessionId: string,
  cwd: string,
): Promise<Uint8Array | undefined> {
  const found = await findGeminiChat(home, sessionId, cwd);
  if (!found) return undefined;
  const chat = await readHomeFile(home, join(dotGemini(home), "tmp", found.slug, "chats", found.file));
  if (!chat) return undefined;
  const header: StateHeader = { format: HEADER_MAGIC, version: 1, slug: found.slug, file: found.file };
  return Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), chat]);
}

/** Puts an exported chat back (unless the home has it already) and registers the cwd under its slug. */
export async function importGeminiSession(
  home: string,
  sessionId: string,
  cwd: string,
  state: Uint8Array,
): Promise<void> {
  if (!isGeminiSessionId(sessionId) || (await findGeminiChat(home, sessionId, cwd))) return;
  const buffer = Buffer.from(state.buffer, state.byteOffset, state.byteLength);
  const newline = buffer.indexOf(0x0a);
  const header = newline > 0 ? parseHeader(buffer.subarray(0, newline).toString("utf8")) : undefined;
  if (!header) return; // not ours: the resume fails and the turn runs fresh
  const chat = buffer.subarray(newline + 1);
  const root = dotGemini(home);
  const slug = (await projectSlug(home, cwd)) ?? header.slug;
  await writeHomeFile(home, join(root, "tmp", slug, "chats", header.file), chat);
  const projects = await readProjects(home);
  if (projects[cwd] !== slug) {
    projects[cwd] = slug;
    await writeHomeFile(home, join(root, "projects.json"), `${JSON.stringify({ projects }, null, 2)}\n`);
  }
  // the CLI checks a slug's owner by these before it uses the folder
  await writeHomeFile(home, join(root, "tmp", slug, ".project_root"), cwd);
  await writeHomeFile(home, join(root, "history", slug, ".project_root"), cwd);
}

function parseHeader(line: string): StateHeader | undefined {
  try {
    const value = JSON.parse(line) as Partial<StateHeader>;
    if (value.format !== HEADER_MAGIC || typeof value.slug !== "string" || typeof value.file !== "string")
      return undefined;
    // both come from the database: one path segment each, of the CLI's alphabet
    return SLUG.test(value.slug) && CHAT_FILE.test(value.file) ? (value as StateHeader) : undefined;
  } catch {
    return undefined;
  }
}
