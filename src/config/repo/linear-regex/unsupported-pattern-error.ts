/**
 * A valid regular expression the linear engine will not run: a backreference or lookaround (which need
 * backtracking), or one whose counted repetitions write out past the engine's size limit.
 */
export class UnsupportedPatternError extends Error {
  /** @param what what of the pattern cannot run, e.g. "a backreference (`\1`)" */
  constructor(readonly what: string) {
    super(`cannot run in linear time: ${what}`);
    this.name = "UnsupportedPatternError";
  }
}
