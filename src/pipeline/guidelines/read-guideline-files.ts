import { posix } from "node:path";
import type { RepoConfig } from "../../config/repo/repo-config.js";
import type { GitWorkspace } from "../../git/git-workspace.js";
import type { GuidelineFile, GuidelineScope } from "./guideline.js";
import { matchGlob } from "./match-glob.js";
import { splitFrontMatter } from "./split-front-matter.js";

/** Files named so apply to the paths under their folder, wherever in the tree they are. */
const NESTED_NAMES = new Set(["AGENTS.md", "CLAUDE.md"]);
/** Front matter a file may carry beyond the budget and still fit once it is stripped. */
const FRONT_MATTER_SLACK = 4096;
/** The most rule files read from one commit (by path order); a tree with more is unusual. */
const MAX_FILES = 200;

/**
 * The rule files of commit `sha` (the PR's base, never its head) that `guidelines.files` and
 * `learnings.path` name, read with git from the object database: regular files only (no symbolic links),
 * text only. A file too large to fit the budget is not read, only named (it is left out whole). Empty when
 * `guidelines.enabled` is off.
 */
export async function readGuidelineFiles(
  workspace: GitWorkspace,
  sha: string,
  config: Pick<RepoConfig, "guidelines" | "learnings">,
): Promise<GuidelineFile[]> {
  if (!config.guidelines.enabled) return [];
  const entries = [...new Set([...config.guidelines.files, config.learnings.path])];
  const tree = await workspace.listFiles(sha);
  const named = tree
    .filter((file) => entries.some((entry) => names(entry, file.path)))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .slice(0, MAX_FILES);
  const maxRead = config.guidelines.max_bytes + FRONT_MATTER_SLACK;
  const read = await Promise.all(
    named.map(async ({ path, size }): Promise<GuidelineFile | undefined> => {
      if (size > maxRead) return { path, scope: nameScope(path) ?? { kind: "all" }, text: undefined, bytes: size };
      const raw = await workspace.readFile(sha, path);
      if (raw === undefined || raw.includes("\0")) return undefined;
      const { fields, body } = splitFrontMatter(raw);
      const scope = nameScope(path) ?? frontMatterScope(path, fields);
      const text = body.trim();
      if (!scope || text === "") return undefined;
      return { path, scope, text, bytes: Buffer.byteLength(text) };
    }),
  );
  return read.filter((file): file is GuidelineFile => file !== undefined);
}

/** Whether a `guidelines.files` entry names `path`: AGENTS.md and CLAUDE.md at any depth, others from the root. */
function names(entry: string, path: string): boolean {
  if (NESTED_NAMES.has(entry)) return path === entry || path.endsWith(`/${entry}`);
  return matchGlob(entry, path, { anchored: true });
}

function nameScope(path: string): GuidelineScope | undefined {
  const name = posix.basename(path);
  if (!NESTED_NAMES.has(name)) return undefined;
  const folder = posix.dirname(path);
  return { kind: "folder", folder: folder === "." ? "" : folder, name };
}

/**
 * `.instructions.md`: its `applyTo` globs (comma-separated); `.mdc`: `alwaysApply: true`, or its `globs`.
 * Without them such a file is not applied automatically (as in Copilot and Cursor); other files apply to all.
 */
function frontMatterScope(path: string, fields: Record<string, string | string[]>): GuidelineScope | undefined {
  const globs = (value: string | string[] | undefined) =>
    (Array.isArray(value) ? value : (value ?? "").split(",")).map((g) => g.trim()).filter(Boolean);
  if (path.endsWith(".instructions.md")) {
    const applyTo = globs(fields.applyTo);
    return applyTo.length > 0 ? { kind: "globs", globs: applyTo } : undefined;
  }
  if (path.endsWith(".mdc")) {
    if (String(fields.alwaysApply).toLowerCase() === "true") return { kind: "all" };
    const list = globs(fields.globs);
    return list.length > 0 ? { kind: "globs", globs: list } : undefined;
  }
  return { kind: "all" };
}
