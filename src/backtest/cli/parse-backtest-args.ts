// The backtest's cli room: the command line read into BacktestOptions (parseBacktestArgs, this file), the
// usage text --help prints, and the options the run takes. It imports the configurations room (what a
// configuration is) and nothing else of the backtest.

import { parseArgs } from "node:util";
import type { BacktestConfiguration } from "../configurations/backtest-configuration.js";
import type { BacktestOptions } from "./backtest-options.js";

/** The flags `npm run backtest` takes (backtest-usage says what each does). */
const FLAGS = {
  help: { type: "boolean", short: "h" },
  repo: { type: "string" },
  golden: { type: "string" },
  "from-history": { type: "boolean" },
  "history-database-url": { type: "string" },
  "history-pglite-dir": { type: "string" },
  pairs: { type: "string" },
  merges: { type: "boolean" },
  limit: { type: "string" },
  branch: { type: "string" },
  replay: { type: "boolean" },
  "max-pushes": { type: "string" },
  "accept-other-repos": { type: "boolean" },
  out: { type: "string" },
  "max-spend": { type: "string" },
  env: { type: "string", multiple: true },
  agent: { type: "string" },
  model: { type: "string" },
  config: { type: "string" },
  instructions: { type: "string" },
  label: { type: "string" },
  "b-env": { type: "string", multiple: true },
  "b-agent": { type: "string" },
  "b-model": { type: "string" },
  "b-config": { type: "string" },
  "b-instructions": { type: "string" },
  "b-label": { type: "string" },
  match: { type: "string" },
  "judge-env": { type: "string", multiple: true },
  "line-tolerance": { type: "string" },
  resamples: { type: "string" },
  seed: { type: "string" },
  "repo-name": { type: "string" },
  "database-url": { type: "string" },
  verbose: { type: "boolean" },
} as const;

/** The command line and environment → BacktestOptions; every mistake reported in one throw. `help` when asked for it. */
export function parseBacktestArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): BacktestOptions | "help" {
  const { values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: FLAGS });
  if (values.help) return "help";
  const problems: string[] = [];
  if (!values.repo) problems.push("--repo: the local clone to backtest is required");
  if (!values.golden && !values.pairs && !values.merges && !values["from-history"])
    problems.push("name the pull requests: --golden <file>, --from-history, --pairs <file> or --merges");
  const history = fromHistory(values, env, problems);
  if (values.pairs && values.merges) problems.push("--pairs and --merges: give one of them");
  const match = values.match ?? "judge";
  if (match !== "judge" && match !== "location") problems.push(`--match: "${match}" is neither judge nor location`);
  let maxSpendUsd: number | undefined;
  if (values["max-spend"] !== undefined) {
    maxSpendUsd = Number(values["max-spend"]);
    if (!Number.isFinite(maxSpendUsd) || maxSpendUsd < 0)
      problems.push(`--max-spend: "${values["max-spend"]}" is not an amount of dollars`);
  }
  const configurations = configurationsOf(values, problems);
  const options: BacktestOptions = {
    repo: values.repo ?? "",
    ...(values.golden ? { golden: values.golden } : {}),
    ...(history ? { fromHistory: history } : {}),
    ...(values.pairs ? { pairs: values.pairs } : {}),
    merges: values.merges ?? false,
    branch: values.branch ?? "HEAD",
    limit: int(problems, "limit", values.limit, 1),
    replay: values.replay ?? false,
    maxPushes: int(problems, "max-pushes", values["max-pushes"], 1),
    acceptOtherRepos: values["accept-other-repos"] ?? false,
    out: values.out ?? "backtest-out",
    ...(maxSpendUsd !== undefined ? { maxSpendUsd } : {}),
    configurations,
    matching: match === "location" ? "location" : "judge",
    judgeEnv: pairsOf(problems, "judge-env", values["judge-env"]),
    lineTolerance: int(problems, "line-tolerance", values["line-tolerance"], 0) ?? 5,
    resamples: int(problems, "resamples", values.resamples, 1) ?? 1000,
    seed: int(problems, "seed", values.seed, 0) ?? 1,
    ...(values["repo-name"] ? { repoName: values["repo-name"] } : {}),
    ...((values["database-url"] ?? env.BACKTEST_DATABASE_URL)
      ? { databaseUrl: values["database-url"] ?? env.BACKTEST_DATABASE_URL }
      : {}),
    logLevel: values.verbose ? "info" : "warn",
  };
  if (problems.length > 0) throw new Error(`backtest: ${problems.join("\n  ")}`);
  return options;
}

/** The flags that make configuration A, and B over it. */
interface ConfigurationFlags {
  env?: string[];
  agent?: string;
  model?: string;
  config?: string;
  instructions?: string;
  label?: string;
  "b-env"?: string[];
  "b-agent"?: string;
  "b-model"?: string;
  "b-config"?: string;
  "b-instructions"?: string;
  "b-label"?: string;
}

/** Configuration A, and B when a `--b-…` flag is given: B starts from A's settings, its own flags over them. */
function configurationsOf(values: ConfigurationFlags, problems: string[]): BacktestConfiguration[] {
  const a: BacktestConfiguration = {
    label: values.label ?? "A",
    env: {
      ...pairsOf(problems, "env", values.env),
      ...(values.agent ? { AGENT: values.agent } : {}),
      ...(values.model ? { AGENT_MODEL: values.model } : {}),
    },
    ...(values.config ? { configFile: values.config } : {}),
    ...(values.instructions ? { instructionsFile: values.instructions } : {}),
  };
  const configurations = [a];
  const wantsB = ["b-env", "b-agent", "b-model", "b-config", "b-instructions", "b-label"].some(
    (k) => values[k as keyof typeof values] !== undefined,
  );
  if (wantsB) {
    const b: BacktestConfiguration = {
      label: values["b-label"] ?? "B",
      env: {
        ...a.env,
        ...pairsOf(problems, "b-env", values["b-env"]),
        ...(values["b-agent"] ? { AGENT: values["b-agent"] } : {}),
        ...(values["b-model"] ? { AGENT_MODEL: values["b-model"] } : {}),
      },
      ...((values["b-config"] ?? a.configFile) ? { configFile: values["b-config"] ?? a.configFile } : {}),
      ...((values["b-instructions"] ?? a.instructionsFile)
        ? { instructionsFile: values["b-instructions"] ?? a.instructionsFile }
        : {}),
    };
    if (b.label === a.label) problems.push(`--b-label: B needs a name other than A's ("${a.label}")`);
    configurations.push(b);
  }
  return configurations;
}

/** A whole-number flag of at least `min`; undefined when not given or not one (then said in `problems`). */
function int(problems: string[], name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    problems.push(`--${name}: "${value}" is not a whole number of at least ${min}`);
    return undefined;
  }
  return n;
}

/** A repeated `KEY=VALUE` flag as a record; an item without `=` is said in `problems`. */
function pairsOf(problems: string[], name: string, list: string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list ?? []) {
    const at = item.indexOf("=");
    if (at <= 0) problems.push(`--${name}: "${item}" is not KEY=VALUE`);
    else out[item.slice(0, at)] = item.slice(at + 1);
  }
  return out;
}

/** `--from-history`'s database: --history-database-url, --history-pglite-dir, else the app's DATABASE_URL. */
function fromHistory(
  values: { golden?: string; "from-history"?: boolean; "history-database-url"?: string; "history-pglite-dir"?: string },
  env: NodeJS.ProcessEnv,
  problems: string[],
): BacktestOptions["fromHistory"] {
  const url = values["history-database-url"];
  const dir = values["history-pglite-dir"];
  if (!values["from-history"]) {
    if (url || dir) problems.push("--history-database-url, --history-pglite-dir: only with --from-history");
    return undefined;
  }
  if (values.golden) problems.push("--golden and --from-history: give one of them");
  if (url && dir) problems.push("--history-database-url and --history-pglite-dir: give one of them");
  if (dir) return { pgliteDir: dir };
  const databaseUrl = url ?? env.DATABASE_URL;
  if (!databaseUrl)
    problems.push(
      "--from-history: the app's database is needed (--history-database-url, --history-pglite-dir or DATABASE_URL)",
    );
  return { databaseUrl };
}
