/** Something wrong in a config file: which file, which line, which setting, what. */
export interface ConfigProblem {
  /** `.github/no-mistakes.yml` (the repository's own), or `owner/repo:path` for another repository's. */
  file: string;
  line?: number;
  /** The setting's key path (`review.max_comments`); absent for the file as a whole. */
  key?: string;
  message: string;
}

/** One line: ``.github/no-mistakes.yml line 7: `review.max_comments`: Too big: expected number to be <=100``. */
export function formatConfigProblem(problem: ConfigProblem): string {
  const where = problem.line === undefined ? problem.file : `${problem.file} line ${problem.line}`;
  return `${where}: ${problem.key === undefined ? "" : `${codeSpan(problem.key)}: `}${problem.message}`;
}

/** A code span no backtick inside can close (keys come from a file someone wrote). */
export function codeSpan(text: string): string {
  const one = text.replace(/\s+/g, " ");
  const longest = Math.max(0, ...[...one.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = one.startsWith("`") || one.endsWith("`") || one === "" ? " " : "";
  return `${fence}${pad}${one}${pad}${fence}`;
}
