import { existsSync } from "node:fs";
import { BACKTEST_USAGE } from "./cli/backtest-usage.js";
import { parseBacktestArgs } from "./cli/parse-backtest-args.js";
import { runBacktest } from "./run-backtest.js";

/**
 * `npm run backtest`: parses the command line, runs the backtest (Ctrl-C stops the review in progress; the
 * report covers what finished and a rerun resumes). Exits 0 when every PR was reviewed and scored, 1 with
 * the reason on a mistake, 2 when a review or its judging failed, 3 when it stopped early (the spend cap, or
 * Ctrl-C): a script can tell a finished backtest from one to rerun.
 */
async function main(): Promise<number> {
  // The app's own .env (the model key, AGENT, AGENT_MODEL …), as `npm start` and `npm run doctor` read it.
  if (existsSync(".env")) process.loadEnvFile(".env");
  let options;
  try {
    options = parseBacktestArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${BACKTEST_USAGE}`);
    return 1;
  }
  if (options === "help") {
    process.stdout.write(BACKTEST_USAGE);
    return 0;
  }
  const controller = new AbortController();
  process.once("SIGINT", () => {
    process.stderr.write("\nstopping: the review in progress is abandoned; finished PRs are kept\n");
    controller.abort(Object.assign(new Error("interrupted"), { interrupted: true }));
  });
  const report = await runBacktest(options, {
    env: process.env,
    print: (text) => process.stdout.write(`${text}\n`),
    progress: (line) => process.stderr.write(`${line}\n`),
    signal: controller.signal,
  });
  if (report.stopped) return 3;
  return report.configurations.some((c) => c.failures.length > 0) ? 2 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`backtest: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
