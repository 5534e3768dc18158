import { readFile } from "node:fs/promises";
import { locateJsonError } from "./locate-json-error.js";

/**
 * A JSON file's value. A file that is not JSON (cut short, hand-edited) is refused with its path, the line
 * and column where it stops being JSON and what was expected there. A leading byte order mark is allowed.
 */
export async function readJsonFile(path: string): Promise<unknown> {
  const text = (await readFile(path, "utf8")).replace(/^\uFEFF/, "");
  try {
    return JSON.parse(text);
  } catch (error) {
    const at = locateJsonError(text);
    if (!at) throw new Error(`${path}: not valid JSON: ${(error as Error).message}`);
    throw new Error(
      `${path}:${at.line}:${at.column}: not valid JSON (character ${at.offset}): expected ${at.expected}, found ${at.found}`,
    );
  }
}
