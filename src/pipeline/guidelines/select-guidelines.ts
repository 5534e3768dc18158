import type { Guideline, GuidelineFile } from "./guideline.js";
import { guidelineDigest } from "./guideline-digest.js";
import { matchGlob } from "./match-glob.js";

/**
 * The guidelines that apply to `changedPaths`, most specific first: `path_instructions` whose glob
 * matches a changed path (in the config's order), then nested AGENTS.md / CLAUDE.md (deepest first) — for
 * each changed path only the nearest file of each name applies — then files whose `applyTo` / `globs`
 * match, then the root's AGENTS.md / CLAUDE.md, then the files that apply to every path.
 */
export function selectGuidelines(
  files: readonly GuidelineFile[],
  changedPaths: readonly string[],
  pathInstructions: readonly { path: string; instructions: string }[],
): Guideline[] {
  const ranked: { rank: number; depth: number; guideline: Guideline }[] = [];
  const nearest = nearestFolderFiles(files, changedPaths);
  for (const file of files) {
    const { scope } = file;
    if (scope.kind === "folder") {
      if (!nearest.has(file)) continue;
      const depth = scope.folder === "" ? 0 : scope.folder.split("/").length;
      const appliesTo =
        depth === 0 ? `changed files with no nearer ${scope.name}` : `changed files under \`${scope.folder}/\``;
      ranked.push({ rank: depth === 0 ? 3 : 1, depth, guideline: fromFile(file, appliesTo) });
    } else if (scope.kind === "globs") {
      if (!changedPaths.some((path) => scope.globs.some((glob) => matchGlob(glob, path)))) continue;
      ranked.push({ rank: 2, depth: 0, guideline: fromFile(file, `changed files matching ${spans(scope.globs)}`) });
    } else ranked.push({ rank: 4, depth: 0, guideline: fromFile(file, "every changed file") });
  }
  ranked.sort((a, b) => a.rank - b.rank || b.depth - a.depth);
  return [...fromPathInstructions(changedPaths, pathInstructions), ...ranked.map((r) => r.guideline)];
}

/** For each changed path and each name (AGENTS.md, CLAUDE.md), the file of that name in its nearest folder. */
function nearestFolderFiles(files: readonly GuidelineFile[], changedPaths: readonly string[]): Set<GuidelineFile> {
  const applied = new Set<GuidelineFile>();
  for (const path of changedPaths) {
    const best = new Map<string, { file: GuidelineFile; length: number }>();
    for (const file of files) {
      const { scope } = file;
      if (scope.kind !== "folder") continue;
      if (scope.folder !== "" && !path.startsWith(`${scope.folder}/`)) continue;
      const seen = best.get(scope.name);
      if (!seen || scope.folder.length > seen.length) best.set(scope.name, { file, length: scope.folder.length });
    }
    for (const { file } of best.values()) applied.add(file);
  }
  return applied;
}

function fromPathInstructions(
  changedPaths: readonly string[],
  pathInstructions: readonly { path: string; instructions: string }[],
): Guideline[] {
  const byGlob = new Map<string, string[]>();
  for (const { path: glob, instructions } of pathInstructions) {
    if (!changedPaths.some((path) => matchGlob(glob, path)) || instructions.trim() === "") continue;
    byGlob.set(glob, [...(byGlob.get(glob) ?? []), instructions.trim()]);
  }
  return [...byGlob].map(([glob, texts]) => {
    const key = `path_instructions: ${glob}`;
    const text = texts.join("\n\n");
    return {
      key,
      kind: "path_instructions" as const,
      name: glob,
      appliesTo: `changed files matching \`${glob}\``,
      text,
      bytes: Buffer.byteLength(text),
      digest: guidelineDigest(key, text),
    };
  });
}

function fromFile(file: GuidelineFile, appliesTo: string): Guideline {
  return {
    key: file.path,
    kind: "file",
    name: file.path,
    appliesTo,
    text: file.text,
    bytes: file.bytes,
    digest: guidelineDigest(file.path, file.text),
  };
}

function spans(globs: readonly string[]): string {
  return globs.map((glob) => `\`${glob}\``).join(", ");
}
