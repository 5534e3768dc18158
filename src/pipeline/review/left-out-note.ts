import type { LeftOutFile } from "../../git/bounded-diff.js";

const SHOWN = 20;

/** The review's line about files too large to read: which, how large, and why. */
export function leftOutNote(files: readonly LeftOutFile[]): string {
  const name = (f: LeftOutFile) =>
    `\`${f.path.replace(/[`\s]+/g, " ")}\` (${(f.bytes / (1024 * 1024)).toFixed(1)} MB${f.why === "diff-too-large" ? ", past the diff's budget" : ""})`;
  const shown = files.slice(0, SHOWN).map(name).join(", ");
  const more = files.length > SHOWN ? `, and ${files.length - SHOWN} more` : "";
  return `Partial review: ${files.length} file${files.length === 1 ? " is" : "s are"} too large to read and ${files.length === 1 ? "was" : "were"} left out: ${shown}${more}.`;
}
