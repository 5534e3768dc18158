import { realpath } from "node:fs/promises";
import { join, resolve } from "node:path";
import { listHomeDir, readHomeFile, writeHomeFile } from "../sandbox/agent-home-files.js";

/**
 * Claude Code keeps each session as a transcript,
 * `${CLAUDE_CONFIG_DIR}/projects/<project dir>/<session id>.jsonl`, where the project dir is the
 * realpath of the working directory with every non-alphanumeric character replaced by '-'
 * (checked on 2.1.197: /tmp/my_ws.v1 x → -tmp-my-ws-v1-x). Past 200 characters the CLI cuts the
 * name and appends a hash of its own (Bun.hash, not reproducible here), so exports record the
 * directory the CLI actually used and imports write the transcript back to that same directory.
 */

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEADER_MAGIC = "no-mistakes/claude-transcript";
const MAX_PLAIN_DIR = 200;

interface StateHeader {
  format: typeof HEADER_MAGIC;
  version: 1;
  projectDir: string;
}

export function isClaudeSessionId(id: string): boolean {
  return SESSION_ID.test(id);
}

/** The project dir name for a (real) cwd, as the CLI derives it for paths up to 200 characters. */
export function claudeProjectDirName(realCwd: string): string {
  return realCwd.replace(/[^a-zA-Z0-9]/g, "-");
}

async function realCwd(cwd: string): Promise<string> {
  try {
    return await realpath(cwd);
  } catch {
    return resolve(cwd);
  }
}

/** Where the transcript of a session is, when it exists: the derived dir first, then any project dir. */
export async function findClaudeTranscript(
  configDir: string,
  sessionId: string,
  cwd: string,
): Promise<{ projectDir: string; path: string } | undefined> {
  if (!isClaudeSessionId(sessionId)) return undefined;
  const projects = join(configDir, "projects");
  const derived = claudeProjectDirName(await realCwd(cwd));
  const file = `${sessionId}.jsonl`;
  // Real directories and regular files only: a linked dir or a FIFO the agent planted is not walked into.
  const has = async (dir: string) => (await listHomeDir(configDir, join(projects, dir))).files.includes(file);
  if (derived.length <= MAX_PLAIN_DIR && (await has(derived))) {
    return { projectDir: derived, path: join(projects, derived, file) };
  }
  const { dirs } = await listHomeDir(configDir, projects);
  // Prefer a dir whose name starts like the derived one (long, hashed names), then any.
  const prefix = derived.slice(0, MAX_PLAIN_DIR);
  dirs.sort((a, b) => Number(b.startsWith(prefix)) - Number(a.startsWith(prefix)));
  for (const dir of dirs) {
    if (await has(dir)) return { projectDir: dir, path: join(projects, dir, file) };
  }
  return undefined;
}

/** The transcript with a one-line header naming its project dir; undefined when there is none. */
export async function exportClaudeSession(
  configDir: string,
  sessionId: string,
  cwd: string,
): Promise<Uint8Array | undefined> {
  const found = await findClaudeTranscript(configDir, sessionId, cwd);
  if (!found) return undefined;
  const transcript = await readHomeFile(configDir, found.path);
  if (!transcript) return undefined;
  const header: StateHeader = { format: HEADER_MAGIC, version: 1, projectDir: found.projectDir };
  return Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), transcript]);
}

/** Writes an exported transcript back, unless the CLI already has one for this session. */
export async function importClaudeSession(
  configDir: string,
  sessionId: string,
  cwd: string,
  state: Uint8Array,
): Promise<void> {
  if (!isClaudeSessionId(sessionId)) return;
  if (await findClaudeTranscript(configDir, sessionId, cwd)) return;
  const buffer = Buffer.from(state.buffer, state.byteOffset, state.byteLength);
  let projectDir = claudeProjectDirName(await realCwd(cwd));
  let transcript = buffer;
  const newline = buffer.indexOf(0x0a);
  if (newline > 0) {
    const header = parseHeader(buffer.subarray(0, newline).toString("utf8"));
    if (header) {
      projectDir = header.projectDir;
      transcript = buffer.subarray(newline + 1);
    }
  }
  // A fresh file renamed into place, in a directory checked to be inside the config dir.
  await writeHomeFile(configDir, join(configDir, "projects", projectDir, `${sessionId}.jsonl`), transcript);
}

function parseHeader(line: string): StateHeader | undefined {
  try {
    const value = JSON.parse(line) as Partial<StateHeader>;
    if (value.format !== HEADER_MAGIC || typeof value.projectDir !== "string") return undefined;
    // The dir comes from the database: it must be one path segment of the CLI's alphabet.
    if (!/^[A-Za-z0-9-]+$/.test(value.projectDir)) return undefined;
    return value as StateHeader;
  } catch {
    return undefined;
  }
}
