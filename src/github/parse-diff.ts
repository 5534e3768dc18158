/**
 * Parses unified `git diff` output into an index of where GitHub accepts review comments.
 *
 * GitHub only accepts a review comment on side RIGHT on a line of the new file that appears in
 * the pull request diff: an added line or a context line inside a hunk. Removed lines have no
 * RIGHT-side number, so the commentable lines of a hunk are exactly its new-side lines.
 *
 * Pure: no I/O. Paths are repo-relative, without the `a/` / `b/` prefixes git adds.
 */

export type DiffFileStatus = "added" | "modified" | "deleted" | "renamed" | "copied";

export interface DiffHunk {
  /** From the `@@ -oldStart,oldLines +newStart,newLines @@` header. */
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  /** RIGHT-side line numbers GitHub accepts a comment on: added and context lines. */
  readonly commentable: ReadonlySet<number>;
  /** The subset of `commentable` that was added by the change. */
  readonly added: ReadonlySet<number>;
}

export interface DiffFile {
  /** The path in the new tree; for a deleted file, the path it had. */
  readonly path: string;
  /** The path in the old tree; null when the file was added. Equals `path` unless renamed/copied. */
  readonly oldPath: string | null;
  readonly status: DiffFileStatus;
  /** `Binary files ... differ` or a `GIT binary patch`: no lines to comment on. */
  readonly binary: boolean;
  /** In the order they appear; empty for pure renames, mode changes, empty and binary files. */
  readonly hunks: readonly DiffHunk[];
}

export interface DiffIndex {
  /** Keyed by `DiffFile.path`. */
  readonly files: ReadonlyMap<string, DiffFile>;
}

/** The hunk of `file` whose commentable (RIGHT-side) lines include `line`, if any. */
export function hunkContaining(file: DiffFile, line: number): DiffHunk | undefined {
  return file.hunks.find((hunk) => hunk.commentable.has(line));
}

interface MutableHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  commentable: Set<number>;
  added: Set<number>;
}

interface FileDraft {
  /** From `diff --git a/X b/Y` when it could be split unambiguously. */
  gitOld: string | null;
  gitNew: string | null;
  /** From `---` / `+++`; null means /dev/null, undefined means not seen. */
  minus: string | null | undefined;
  plus: string | null | undefined;
  renameFrom: string | null;
  renameTo: string | null;
  copyFrom: string | null;
  copyTo: string | null;
  newFileMode: boolean;
  deletedFileMode: boolean;
  binary: boolean;
  /** Paths from a `Binary files X and Y differ` line, for diffs without a git header. */
  binaryOld: string | null | undefined;
  binaryNew: string | null | undefined;
  hunks: MutableHunk[];
}

function newDraft(): FileDraft {
  return {
    gitOld: null,
    gitNew: null,
    minus: undefined,
    plus: undefined,
    renameFrom: null,
    renameTo: null,
    copyFrom: null,
    copyTo: null,
    newFileMode: false,
    deletedFileMode: false,
    binary: false,
    binaryOld: undefined,
    binaryNew: undefined,
    hunks: [],
  };
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Where parseDiff is: the files read so far, the file and hunk being read, how many lines the hunk still expects. */
interface DiffReader {
  files: Map<string, DiffFile>;
  draft: FileDraft | null;
  hunk: MutableHunk | null;
  oldLeft: number;
  newLeft: number;
  /** The RIGHT-side number of the hunk's next line. */
  newNo: number;
  /** Inside a combined (merge) diff, which is skipped up to the next `diff --git`. */
  skipping: boolean;
}

export function parseDiff(unifiedDiff: string): DiffIndex {
  const lines = unifiedDiff.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const reader: DiffReader = {
    files: new Map(),
    draft: null,
    hunk: null,
    oldLeft: 0,
    newLeft: 0,
    newNo: 0,
    skipping: false,
  };
  for (const raw of lines) {
    if (reader.hunk && (reader.oldLeft > 0 || reader.newLeft > 0) && readHunkLine(reader, reader.hunk, raw)) continue;
    readHeaderLine(reader, raw.endsWith("\r") ? raw.slice(0, -1) : raw);
  }
  finishFile(reader);
  return { files: reader.files };
}

function finishFile(reader: DiffReader): void {
  if (reader.draft) addFile(reader.files, reader.draft);
  reader.draft = null;
  reader.hunk = null;
}

/**
 * A line of the hunk being read: true when it was one (context, added, removed or a no-newline marker);
 * false, with the hunk ended, when it is anything else (the hunk was shorter than its header said).
 */
function readHunkLine(reader: DiffReader, hunk: MutableHunk, raw: string): boolean {
  const first = raw[0];
  // An empty line inside a hunk is a context line whose leading space was stripped (some
  // tools and editors strip trailing whitespace from patches).
  if (first === " " || first === undefined || (first === "\r" && raw.length === 1)) {
    hunk.commentable.add(reader.newNo);
    reader.newNo++;
    reader.oldLeft--;
    reader.newLeft--;
    return true;
  }
  if (first === "+") {
    hunk.commentable.add(reader.newNo);
    hunk.added.add(reader.newNo);
    reader.newNo++;
    reader.newLeft--;
    return true;
  }
  if (first === "-") {
    reader.oldLeft--;
    return true;
  }
  if (first === "\\") return true; // "\ No newline at end of file"
  // Anything else means the hunk was shorter than its header said; read it as a header line.
  reader.hunk = null;
  return false;
}

/** A line outside a hunk (its `\r` dropped): a file's start, a hunk's header, or one of the file's headers. */
function readHeaderLine(reader: DiffReader, line: string): void {
  if (line.startsWith("diff --git ")) {
    finishFile(reader);
    reader.skipping = false;
    reader.draft = newDraft();
    const names = splitGitHeader(line.slice("diff --git ".length));
    if (names) {
      reader.draft.gitOld = stripPrefix(names[0], "a/");
      reader.draft.gitNew = stripPrefix(names[1], "b/");
    }
    return;
  }
  if (line.startsWith("diff --cc ") || line.startsWith("diff --combined ")) {
    // Combined (merge) diffs have no single RIGHT side; skip the file.
    finishFile(reader);
    reader.skipping = true;
    return;
  }
  if (reader.skipping) return;
  if (line.startsWith("\\")) return; // no-newline marker after a hunk's last line

  const header = HUNK_HEADER.exec(line);
  if (header) {
    if (reader.draft) startHunk(reader, reader.draft, header); // a hunk outside any file: nothing to attach it to
    return;
  }
  if (line.startsWith("--- ")) {
    // Without a `diff --git` header (plain `diff -u`), `---` starts the next file.
    if (!reader.draft || reader.draft.hunks.length > 0 || reader.draft.minus !== undefined) {
      finishFile(reader);
      reader.draft = newDraft();
    }
    reader.draft.minus = parseFileLabel(line.slice(4), "a/");
    return;
  }
  if (reader.draft) readFileHeader(reader.draft, line);
}

function startHunk(reader: DiffReader, draft: FileDraft, header: RegExpExecArray): void {
  const oldStart = Number(header[1]);
  const oldLines = header[2] === undefined ? 1 : Number(header[2]);
  const newStart = Number(header[3]);
  const newLines = header[4] === undefined ? 1 : Number(header[4]);
  reader.hunk = { oldStart, oldLines, newStart, newLines, commentable: new Set(), added: new Set() };
  draft.hunks.push(reader.hunk);
  reader.oldLeft = oldLines;
  reader.newLeft = newLines;
  reader.newNo = newStart;
}

/** The file's own headers (`+++`, modes, renames, copies, binary): what they say, on its draft. */
function readFileHeader(draft: FileDraft, line: string): void {
  if (line.startsWith("+++ ")) {
    draft.plus = parseFileLabel(line.slice(4), "b/");
  } else if (line.startsWith("new file mode ")) {
    draft.newFileMode = true;
  } else if (line.startsWith("deleted file mode ")) {
    draft.deletedFileMode = true;
  } else if (line.startsWith("rename from ")) {
    draft.renameFrom = unquote(line.slice("rename from ".length));
  } else if (line.startsWith("rename to ")) {
    draft.renameTo = unquote(line.slice("rename to ".length));
  } else if (line.startsWith("copy from ")) {
    draft.copyFrom = unquote(line.slice("copy from ".length));
  } else if (line.startsWith("copy to ")) {
    draft.copyTo = unquote(line.slice("copy to ".length));
  } else if (line === "GIT binary patch") {
    draft.binary = true;
  } else if (line.startsWith("Binary files ") && line.endsWith(" differ")) {
    draft.binary = true;
    const names = splitBinaryLine(line.slice("Binary files ".length, -" differ".length));
    if (names) {
      draft.binaryOld = parseFileLabel(names[0], "a/");
      draft.binaryNew = parseFileLabel(names[1], "b/");
    }
  }
  // index, similarity index, old mode, new mode, ...: nothing to record.
}

function addFile(files: Map<string, DiffFile>, draft: FileDraft): void {
  const oldCandidate = firstDefined(draft.minus, draft.renameFrom, draft.copyFrom, draft.binaryOld, draft.gitOld);
  const newCandidate = firstDefined(draft.plus, draft.renameTo, draft.copyTo, draft.binaryNew, draft.gitNew);

  const added = draft.newFileMode || (draft.minus === null && draft.plus !== null);
  const deleted = draft.deletedFileMode || (draft.plus === null && draft.minus !== null);

  let status: DiffFileStatus;
  let path: string | null;
  let oldPath: string | null;
  if (deleted) {
    status = "deleted";
    path = oldCandidate ?? draft.gitNew;
    oldPath = path;
  } else if (added) {
    status = "added";
    path = newCandidate ?? draft.gitOld;
    oldPath = null;
  } else {
    path = newCandidate ?? oldCandidate;
    oldPath = oldCandidate ?? path;
    if (draft.copyFrom !== null || draft.copyTo !== null) status = "copied";
    else if (draft.renameFrom !== null || draft.renameTo !== null || (oldPath !== null && oldPath !== path))
      status = "renamed";
    else status = "modified";
  }
  if (path === null) return; // could not tell which file this is

  const file: DiffFile = {
    path,
    oldPath,
    status,
    binary: draft.binary,
    hunks: draft.hunks.map((h) => ({ ...h })),
  };
  const existing = files.get(path);
  // A type change (e.g. symlink -> file) shows as a deletion and an addition of the same path,
  // and a rename can land on a path another file was deleted from: the new-side file wins.
  if (existing && existing.status !== "deleted" && file.status === "deleted") return;
  files.set(path, file);
}

/** The first argument that is a string; `null` and `undefined` are skipped. */
function firstDefined(...values: (string | null | undefined)[]): string | null {
  for (const value of values) if (typeof value === "string") return value;
  return null;
}

function stripPrefix(path: string, prefix: string): string {
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/**
 * A `---` / `+++` label: `/dev/null` → null; otherwise the path without its prefix. Git appends
 * a tab after names containing spaces, and GNU diff a tab and a timestamp; both are dropped
 * (a name that really contains a tab is quoted by git).
 */
function parseFileLabel(label: string, prefix: string): string | null {
  let name: string;
  if (label.startsWith('"')) {
    const parsed = parseQuoted(label, 0);
    name = parsed ? parsed.value : label;
  } else {
    const tab = label.indexOf("\t");
    name = tab === -1 ? label : label.slice(0, tab);
  }
  if (name === "/dev/null") return null;
  return stripPrefix(name, prefix);
}

/** A `rename from` / `copy to` value: quoted by git when it has special characters. */
function unquote(value: string): string {
  if (value.startsWith('"')) {
    const parsed = parseQuoted(value, 0);
    if (parsed && parsed.end === value.length) return parsed.value;
  }
  return value;
}

/**
 * Splits the `a/X b/Y` of a `diff --git` header. Quoted names are unambiguous. Unquoted names
 * may contain spaces: when the two names are equal (no rename) the split is in the middle, as
 * git itself does; otherwise it must be the only ` b/` in the line, else null (the rename
 * lines give the names then).
 */
function splitGitHeader(rest: string): [string, string] | null {
  if (rest.startsWith('"')) {
    const first = parseQuoted(rest, 0);
    if (!first || rest[first.end] !== " ") return null;
    const secondRaw = rest.slice(first.end + 1);
    const second = secondRaw.startsWith('"') ? parseQuoted(secondRaw, 0) : null;
    return [first.value, second ? second.value : secondRaw];
  }
  if (rest.endsWith('"')) {
    for (let i = rest.indexOf(' "'); i !== -1; i = rest.indexOf(' "', i + 1)) {
      const second = parseQuoted(rest, i + 1);
      if (second && second.end === rest.length) return [rest.slice(0, i), second.value];
    }
    return null;
  }
  if ((rest.length - 1) % 2 === 0) {
    const half = (rest.length - 1) / 2;
    const a = rest.slice(0, half);
    const b = rest.slice(half + 1);
    if (rest[half] === " " && a.startsWith("a/") && b.startsWith("b/") && a.slice(2) === b.slice(2)) return [a, b];
  }
  const at = rest.indexOf(" b/");
  if (at !== -1 && rest.indexOf(" b/", at + 1) === -1) return [rest.slice(0, at), rest.slice(at + 1)];
  return null;
}

/** Splits the `X and Y` of `Binary files X and Y differ`, with the same care as splitGitHeader. */
function splitBinaryLine(rest: string): [string, string] | null {
  if (rest.startsWith('"')) {
    const first = parseQuoted(rest, 0);
    if (!first || !rest.startsWith(" and ", first.end)) return null;
    return [rest.slice(0, first.end), rest.slice(first.end + " and ".length)];
  }
  const at = rest.indexOf(" and ");
  if (at === -1 || rest.indexOf(" and ", at + 1) !== -1) return null;
  return [rest.slice(0, at), rest.slice(at + " and ".length)];
}

const SIMPLE_ESCAPES: Record<string, number> = {
  a: 7,
  b: 8,
  t: 9,
  n: 10,
  v: 11,
  f: 12,
  r: 13,
  '"': 34,
  "\\": 92,
};

/**
 * Reads a C-style quoted name starting at `start` (which must be `"`), as git writes names with
 * special or non-ASCII characters: `\t`, `\"`, `\\`, and octal bytes such as `\303\251` for é.
 */
function parseQuoted(text: string, start: number): { value: string; end: number } | null {
  if (text[start] !== '"') return null;
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === '"') {
      return { value: new TextDecoder().decode(new Uint8Array(bytes)), end: i + 1 };
    }
    if (ch === "\\") {
      const next = text[i + 1];
      if (next === undefined) return null;
      const octal = /^[0-3][0-7]{2}/.exec(text.slice(i + 1, i + 4));
      if (octal) {
        bytes.push(parseInt(octal[0], 8));
        i += 4;
        continue;
      }
      const simple = SIMPLE_ESCAPES[next];
      if (simple === undefined) return null;
      bytes.push(simple);
      i += 2;
      continue;
    }
    const codePoint = text.codePointAt(i) as number;
    const char = String.fromCodePoint(codePoint);
    bytes.push(...encoder.encode(char));
    i += char.length;
  }
  return null;
}
