import type { ZodType } from "zod";
import { configIssueMessage } from "./config-issue-message.js";
import type { ConfigProblem } from "./config-problem.js";
import { yamlWithLines } from "./yaml-with-lines.js";

/** One config file, checked on its own: what of it can be used, and what is wrong with the rest. */
export interface SettledLayer {
  /** The file's valid settings as written (no defaults filled in), `_extends` taken out. */
  settings: Record<string, unknown>;
  /** The file's `_extends` (the base it names), with its line. */
  extends?: { target: string; line?: number };
  problems: ConfigProblem[];
}

type Path = readonly PropertyKey[];

/**
 * Checks a config file's text against the schema; a bad setting is left out alone (its default, or the
 * base's value, applies) and reported with its line. A list is one setting: a bad item leaves the list
 * out. A syntax error leaves the whole file out (what a broken file means cannot be guessed).
 */
export function settleConfigLayer(schema: ZodType, text: string | undefined, file: string): SettledLayer {
  if (text === undefined || text.trim() === "") return { settings: {}, problems: [] };
  const yaml = yamlWithLines(text);
  if (yaml.syntaxError) {
    const { line, message } = yaml.syntaxError;
    return {
      settings: {},
      problems: [{ file, line, message: `not valid YAML, so none of this file is used: ${message}` }],
    };
  }
  if (yaml.value === null || yaml.value === undefined) return { settings: {}, problems: [] };
  if (!isRecord(yaml.value)) {
    const message = "the file should be a mapping of settings (`review:`, `fix:`, …), so none of it is used";
    return { settings: {}, problems: [{ file, line: 1, message }] };
  }
  const settings = structuredClone(yaml.value);
  const problems: ConfigProblem[] = [];
  const report = (path: Path, message: string) => {
    const key = path.map(String).join(".") || undefined;
    if (problems.some((p) => p.key === key && p.message === message)) return;
    problems.push({ file, line: yaml.lineOf(path), ...(key === undefined ? {} : { key }), message });
  };
  for (let round = 0; round < 20; round++) {
    const parsed = schema.safeParse(settings);
    if (parsed.success) break;
    let dropped = false;
    for (const issue of parsed.error.issues) {
      const found: [Path, string][] =
        issue.code === "unrecognized_keys"
          ? issue.keys.map((k) => [[...issue.path, k], "unknown key"])
          : [[issue.path, configIssueMessage(issue)]];
      for (const [path, message] of found) {
        report(path, message);
        dropped = dropSetting(settings, path) || dropped;
      }
    }
    if (!dropped) {
      // nothing left to leave out, yet still refused: none of the file is used rather than a guess
      report([], "could not be read as settings, so none of this file is used");
      for (const key of Object.keys(settings)) delete settings[key];
      break;
    }
  }
  const target = settings._extends;
  delete settings._extends;
  return {
    settings,
    ...(typeof target === "string" ? { extends: { target, line: yaml.lineOf(["_extends"]) } } : {}),
    problems,
  };
}

/** Leaves out the setting a path points into: up to its first list index (a list is one setting). */
function dropSetting(settings: Record<string, unknown>, path: Path): boolean {
  const index = path.findIndex((segment) => typeof segment === "number");
  const setting = index < 0 ? path : path.slice(0, index);
  if (setting.length === 0) return false;
  let parent: unknown = settings;
  for (const segment of setting.slice(0, -1)) parent = isRecord(parent) ? parent[segment as string] : undefined;
  const last = setting.at(-1) as string;
  if (!isRecord(parent) || !(last in parent)) return false;
  delete parent[last];
  return true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
