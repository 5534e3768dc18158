/** Where a rule file applies. */
export type GuidelineScope =
  /** AGENTS.md, CLAUDE.md: the paths under `folder` ("" = the root); of the files with one name, the nearest wins. */
  | { kind: "folder"; folder: string; name: string }
  /** `.instructions.md` (`applyTo`) and `.mdc` (`globs`): the paths a glob matches. */
  | { kind: "globs"; globs: string[] }
  /** copilot-instructions.md, the learnings file, an `.mdc` with `alwaysApply: true`: every path. */
  | { kind: "all" };

/** A rule file as read from the base commit. */
export interface GuidelineFile {
  path: string;
  scope: GuidelineScope;
  /** The text without its front matter; undefined when the file is larger than a prompt may carry (not read). */
  text: string | undefined;
  /** Bytes of `text`, or of the whole file when it was not read. */
  bytes: number;
}

/** One piece of guidance a prompt may carry: a rule file, or the `path_instructions` for one glob. */
export interface Guideline {
  /** What the session's memory knows it by: the file's path, or `path_instructions: <glob>`. */
  key: string;
  kind: "file" | "path_instructions";
  /** The file's path, or the glob. */
  name: string;
  /** Where it applies, as the prompt says it ("every changed file", "changed files under `pkg/a/`"). */
  appliesTo: string;
  /** undefined when it was too large to read: it is left out, and said to be. */
  text: string | undefined;
  bytes: number;
  /** Of the text as the prompt gives it: a changed file has a new one, and is given again. */
  digest: string;
}
