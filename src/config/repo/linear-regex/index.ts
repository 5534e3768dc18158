// Regular expressions from repository config, run in time linear in the text: the title patterns of
// `ignore.title` and the globs of paths and branches compile to them.
export { DEFAULT_MAX_INSTRUCTIONS, linearRegex, type LinearRegex } from "./linear-regex.js";
export { UnsupportedPatternError } from "./unsupported-pattern-error.js";
