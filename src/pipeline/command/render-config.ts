import { formatConfigProblem } from "../../config/repo/config-problem.js";
import { DEFAULT_REPO_CONFIG } from "../../config/repo/repo-config.js";
import type { RepoRef } from "../../github/github-client.js";
import type { RepoConfigRead } from "../job/read-repo-config.js";
import { codeBlock } from "../../text/code-block.js";
import { inlineCode, sanitizeMarkdown } from "../../text/sanitize-markdown.js";

const KIND = {
  repository: "this repository's `.github/no-mistakes.yml`",
  organisation: "organisation defaults",
  extends: "`_extends`",
} as const;

/** What stands for a setting, and for the files, that a private source set: applied, never shown. */
const PRIVATE = "a private source";

/**
 * The answer to `/no-mistakes config`: the settings in effect as YAML, each with the file it came from
 * (or `default`), the order the files apply in, and what is wrong in them, with their lines. It is posted
 * where anyone who sees the PR reads it: a file a private repository holds (and what it extends) is
 * applied but neither named nor shown, nor are its settings' values (its problems are counted, not quoted).
 */
export function renderConfig(author: string, ref: RepoRef, read: RepoConfigRead): string {
  const shown = read.layers.filter((l) => l.shown);
  const hidden = new Set(read.layers.filter((l) => !l.shown).map((l) => l.source));
  const precedence = [
    ...shown.map((l) => `${inlineCode(l.source)} (${KIND[l.kind]})`),
    ...(hidden.size > 0 ? [`${PRIVATE} (applied; not shown here)`] : []),
    "defaults",
  ].join(" › ");
  const provenance = Object.fromEntries(
    Object.entries(read.provenance).map(([key, source]) => [key, hidden.has(source) ? PRIVATE : source]),
  );
  const yaml = yamlLines(read.config as unknown as Record<string, unknown>, [], provenance).join("\n");
  const lines = [
    `@${author} **no-mistakes config** for ${inlineCode(`${ref.owner}/${ref.repo}`)}: the settings in effect, from default branches only.`,
    "",
    `Precedence, nearest first (a file's settings replace those below it; mappings merge key by key, lists replace): ${precedence}.`,
    ...(hidden.size > 0
      ? [
          "",
          `Settings from ${PRIVATE} apply, but their values are not shown here, where anyone who sees this pull request could read them; people who can read that repository find them in its file.`,
        ]
      : []),
    "",
    codeBlock(sanitizeMarkdown(yaml), 60_000, "yaml"),
  ];
  if (read.problems.length > 0) {
    lines.push(
      "",
      `**Problems (${read.problems.length})**, each with its file and line: a setting with a problem is left out, so the file below it (or the default) applies.`,
    );
    for (const problem of read.problems)
      lines.push(`- ${sanitizeMarkdown(formatConfigProblem(problem)).replace(/\s*\n\s*/g, " ")}`);
  } else lines.push("", "No problems in the config files.");
  return lines.join("\n");
}

/**
 * YAML for the settings, each leaf with a trailing comment naming where it came from. A private source's
 * setting shows its key, never its value, and only when the key is one every config has (a key its file
 * made up would itself be its text).
 */
function yamlLines(
  value: Record<string, unknown>,
  path: string[],
  provenance: Record<string, string>,
  defaults: unknown = DEFAULT_REPO_CONFIG,
): string[] {
  const lines: string[] = [];
  const indent = "  ".repeat(path.length);
  for (const [key, child] of Object.entries(value)) {
    if (child === undefined) continue;
    const at = [...path, key];
    const known = isRecord(defaults) && key in defaults ? defaults[key] : undefined;
    const from = provenance[at.join(".")];
    const source = `# ${from ?? "default"}`;
    if (from === PRIVATE) {
      if (known !== undefined) lines.push(`${indent}${key}: ${source} (not shown)`);
    } else if (Array.isArray(child)) {
      if (child.length === 0) lines.push(`${indent}${key}: [] ${source}`);
      else lines.push(`${indent}${key}: ${source}`, ...child.map((item) => `${indent}  - ${JSON.stringify(item)}`));
    } else if (isRecord(child)) {
      const inner = yamlLines(child, at, provenance, known);
      if (inner.length > 0) lines.push(`${indent}${key}:`, ...inner);
    } else lines.push(`${indent}${key}: ${JSON.stringify(child)} ${source}`);
  }
  return lines;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
