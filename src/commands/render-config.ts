import { formatConfigProblem } from "../config/config-problem.js";
import type { RepoRef } from "../github/github-client.js";
import type { RepoConfigRead } from "../pipeline/job/read-repo-config.js";
import { codeBlock } from "../pipeline/render/code-block.js";
import { inlineCode, sanitizeMarkdown } from "../pipeline/render/sanitize-markdown.js";

const KIND = {
  repository: "this repository's `.github/no-mistakes.yml`",
  organisation: "organisation defaults",
  extends: "`_extends`",
} as const;

/**
 * The answer to `/no-mistakes config`: the settings in effect as YAML, each with the file it came from
 * (or `default`), the order the files apply in, and what is wrong in them, with their lines.
 */
export function renderConfig(author: string, ref: RepoRef, read: RepoConfigRead): string {
  const precedence = [...read.layers.map((l) => `${inlineCode(l.source)} (${KIND[l.kind]})`), "defaults"].join(" › ");
  const yaml = yamlLines(read.config as unknown as Record<string, unknown>, [], read.provenance).join("\n");
  const lines = [
    `@${author} **no-mistakes config** for ${inlineCode(`${ref.owner}/${ref.repo}`)}: the settings in effect, from default branches only.`,
    "",
    `Precedence, nearest first (a file's settings replace those below it; mappings merge key by key, lists replace): ${precedence}.`,
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

/** YAML for the settings, each leaf with a trailing comment naming where it came from. */
function yamlLines(value: Record<string, unknown>, path: string[], provenance: Record<string, string>): string[] {
  const lines: string[] = [];
  const indent = "  ".repeat(path.length);
  for (const [key, child] of Object.entries(value)) {
    if (child === undefined) continue;
    const at = [...path, key];
    const source = `# ${provenance[at.join(".")] ?? "default"}`;
    if (Array.isArray(child)) {
      if (child.length === 0) lines.push(`${indent}${key}: [] ${source}`);
      else lines.push(`${indent}${key}: ${source}`, ...child.map((item) => `${indent}  - ${JSON.stringify(item)}`));
    } else if (typeof child === "object" && child !== null) {
      lines.push(`${indent}${key}:`, ...yamlLines(child as Record<string, unknown>, at, provenance));
    } else lines.push(`${indent}${key}: ${JSON.stringify(child)} ${source}`);
  }
  return lines;
}
