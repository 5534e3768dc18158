import { linearRegex, type LinearRegex } from "../config/repo/linear-regex/index.js";

/** Character classes of git's wildmatch (`[[:alpha:]]`), in the C locale it matches bytes in. */
const POSIX_CLASSES: Record<string, [number, number][]> = {
  alnum: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  alpha: [
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  blank: [
    [0x20, 0x20],
    [0x09, 0x09],
  ],
  cntrl: [
    [0x00, 0x1f],
    [0x7f, 0x7f],
  ],
  digit: [[0x30, 0x39]],
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [
    [0x21, 0x2f],
    [0x3a, 0x40],
    [0x5b, 0x60],
    [0x7b, 0x7e],
  ],
  space: [
    [0x09, 0x0d],
    [0x20, 0x20],
  ],
  upper: [[0x41, 0x5a]],
  xdigit: [
    [0x30, 0x39],
    [0x41, 0x46],
    [0x61, 0x66],
  ],
};

/**
 * Whether a repository path matches a glob as git's `:(glob)` pathspec reads it (`ignore.paths`): the
 * glob as plain text names the path or a folder above it (`dist`, `weird[1].txt`), or it matches as
 * a wildcard — `*`, `?` and `[…]` within one folder, `**` as a whole segment across folders
 * (`**‍/x`, `a/**‍/b`, `a/**`), elsewhere as `*`. Unlike git's own matcher, in time linear in the path.
 */
export function pathspecGlob(glob: string): (path: string) => boolean {
  const spec = normalized(glob);
  if (spec === undefined) return () => false;
  if (spec === "") return () => true; // `.`: the whole tree
  const folder = spec.replace(/\/+$/, "");
  const wildcard = wildcardRegex(spec);
  return (path) => path === spec || path.startsWith(`${folder}/`) || (wildcard?.test(path) ?? false);
}

/**
 * As git reads a pathspec from the top of the tree: `.` and empty segments dropped, `..` resolved (one
 * above the top names nothing: git itself refuses it), a trailing `/` kept.
 */
function normalized(glob: string): string | undefined {
  const parts = glob.replace(/^\/+/, "").split("/");
  const kept: string[] = [];
  for (const part of parts.slice(0, -1)) {
    if (part === "..") {
      if (kept.pop() === undefined) return undefined;
    } else if (part !== "." && part !== "") kept.push(part);
  }
  const last = parts.at(-1)!;
  if (last === "..") return kept.length > 0 ? kept.slice(0, -1).join("/") : undefined;
  return [...kept, last === "." ? "" : last].join("/");
}

/** The glob's wildcard reading as a linear regex, or undefined where git's matcher matches nothing (`[` unclosed). */
function wildcardRegex(glob: string): LinearRegex | undefined {
  const chars = Array.from(glob);
  let source = "";
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === "*") {
      let end = i;
      while (chars[end + 1] === "*") end++;
      const last = end + 1 === chars.length;
      const segment = end > i && (i === 0 || chars[i - 1] === "/") && (last || chars[end + 1] === "/");
      source += !segment ? "[^\\/]*" : last ? ".*" : "(?:.*\\/)?";
      i = segment && !last ? end + 1 : end;
    } else if (c === "?") source += "[^\\/]";
    else if (c === "[") {
      const parsed = bracket(chars, i);
      if (!parsed) return undefined;
      source += parsed.source;
      i = parsed.end;
    } else if (c === "\\" && i + 1 < chars.length) source += literal(chars[++i]!);
    else source += literal(c);
  }
  return linearRegex(`^${source}$`, "v", { maxInstructions: Infinity });
}

/** A `[…]` at `start` as a regex class that never matches `/`, and the index of its `]`. */
function bracket(chars: readonly string[], start: number): { source: string; end: number } | undefined {
  let i = start + 1;
  const negated = chars[i] === "!" || chars[i] === "^";
  if (negated) i++;
  let items = "";
  // a `]` first in the class is one of its characters
  for (let first = true; i < chars.length && (first || chars[i] !== "]"); first = false) {
    const posix = /^\[:([a-z]+):\]/.exec(chars.slice(i, i + 10).join(""));
    const ranges = posix && POSIX_CLASSES[posix[1]!];
    if (ranges) {
      items += ranges.map(([low, high]) => `${codePoint(low)}-${codePoint(high)}`).join("");
      i += posix![0].length;
      continue;
    }
    const [low, afterLow] = classChar(chars, i);
    if (chars[afterLow] === "-" && afterLow + 1 < chars.length && chars[afterLow + 1] !== "]") {
      const [high, afterHigh] = classChar(chars, afterLow + 1);
      // git's matcher takes a range's first character on its own too: a range written backwards is just it
      items += low <= high ? `${literal(low)}-${literal(high)}` : literal(low);
      i = afterHigh;
    } else {
      items += literal(low);
      i = afterLow;
    }
  }
  if (i >= chars.length) return undefined;
  // a class never matches the folder separator
  return { source: negated ? `[^${items}\\/]` : `[[${items}]--\\/]`, end: i };
}

function classChar(chars: readonly string[], i: number): [string, number] {
  return chars[i] === "\\" && i + 1 < chars.length ? [chars[i + 1]!, i + 2] : [chars[i]!, i + 1];
}

/** One character as the regex reads it literally, in and out of classes (`v` flag). */
function literal(c: string): string {
  return /^[\p{L}\p{N}]$/u.test(c) ? c : codePoint(c.codePointAt(0)!);
}

function codePoint(n: number): string {
  return `\\u{${n.toString(16)}}`;
}
