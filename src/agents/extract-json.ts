/** A fenced code block: an opening ``` line (with its language) and a closing ``` line. */
const FENCE = /^[ \t]*```[ \t]*([\w-]*)[^\n]*\n([\s\S]*?)^[ \t]*```[ \t]*\r?$/gm;

/**
 * Finds the JSON value in an agent's final message: the whole text, else a fenced ```json block,
 * else the last balanced {...} object in the text. Returns undefined when there is none.
 */
export function extractJson(text: string): unknown {
  const trimmed = text.trim();
  const whole = tryParse(trimmed);
  if (whole !== undefined) return whole;
  // Every fence is matched, whatever its language, so that the closing ``` of one block is never
  // taken for the opening of the next; only ```json and bare ``` blocks are then read.
  const fences = [...trimmed.matchAll(FENCE)].filter((f) => f[1] === "" || f[1]!.toLowerCase() === "json");
  for (let i = fences.length - 1; i >= 0; i--) {
    const parsed = tryParse(fences[i]![2]!.trim());
    if (parsed !== undefined) return parsed;
  }
  return lastBalancedObject(trimmed);
}

function tryParse(text: string): unknown {
  if (!text.startsWith("{") && !text.startsWith("[")) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined; // not JSON: the caller tries the next shape
  }
}

function lastBalancedObject(text: string): unknown {
  for (let end = text.lastIndexOf("}"); end >= 0; end = text.lastIndexOf("}", end - 1)) {
    let depth = 0;
    let inString = false;
    for (let i = end; i >= 0; i--) {
      const ch = text[i];
      if (ch === '"' && !isEscaped(text, i)) inString = !inString;
      if (inString) continue;
      if (ch === "}") depth++;
      else if (ch === "{" && --depth === 0) {
        const parsed = tryParse(text.slice(i, end + 1));
        if (parsed !== undefined) return parsed;
        break;
      }
    }
  }
  return undefined;
}

function isEscaped(text: string, index: number): boolean {
  let backslashes = 0;
  for (let i = index - 1; i >= 0 && text[i] === "\\"; i--) backslashes++;
  return backslashes % 2 === 1;
}
