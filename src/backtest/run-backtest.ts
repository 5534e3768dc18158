import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import pino from "pino";
import { migrateDatabase } from "../db/migrate-database.js";
import { openDatabase } from "../db/open-database.js";
import { createLogger } from "../logging/create-logger.js";
import { assembleReport } from "./assemble-report.js";
import type { BacktestIo } from "./backtest-io.js";
import type { BacktestReport } from "./backtest-report.js";
import { openBacktestRun } from "./backtest-run.js";
import type { BacktestOptions } from "./cli/backtest-options.js";
import { gatherPrs } from "./gather-prs.js";
import { renderReport } from "./render-report.js";
import { reviewEachPr } from "./review-each-pr.js";
import { reportCsv } from "./score/report-csv.js";

/**
 * A backtest: 1. the PRs (golden file, pairs file or merges) found in the clone; 2. each configuration's
 * agent and sessions built as the app builds them, on a database of the backtest's own; 3. each PR
 * reviewed by each configuration through the app's pipeline (reviewPr), stored as it finishes, within the
 * spend cap; 4. each finding matched to the PR's real issues (the judge, or location); 5. scores, the A/B
 * difference with its bootstrap interval, the report on the terminal and in report.json / report.csv.
 */
export async function runBacktest(options: BacktestOptions, io: BacktestIo): Promise<BacktestReport> {
  const out = resolve(options.out);
  const repo = resolve(options.repo);
  await mkdir(out, { recursive: true });
  const signal = io.signal ?? new AbortController().signal;
  const log = createLogger({
    level: options.logLevel,
    destination: pino.destination(2),
    secrets: secretsOf(options, io.env),
  });

  // 1. The PRs.
  const gathered = await gatherPrs(options, io, repo);

  // 2. The database, the configurations and the judge.
  await mkdir(join(out, "pglite"), { recursive: true });
  const database = await openDatabase({ databaseUrl: options.databaseUrl, pgliteDir: join(out, "pglite", "data") });
  try {
    await migrateDatabase(database);
    const run = await openBacktestRun({ ...gathered, repo, out, options, io, signal, log, database });

    // 3. + 4. Review and match, PR by PR.
    const reviewed = await reviewEachPr(run);

    // 5. Scores, the A/B difference, the report.
    const report = assembleReport(run, reviewed);
    await writeFile(join(out, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
    await writeFile(join(out, "report.csv"), reportCsv(report));
    io.print(`${renderReport(report)}\nreport: ${join(out, "report.json")} and ${join(out, "report.csv")}`);
    return report;
  } finally {
    await database.close();
  }
}

/** Every secret-looking value the backtest's environments hold (model keys, tokens): scrubbed from its log lines. */
function secretsOf(options: BacktestOptions, env: NodeJS.ProcessEnv): string[] {
  const all = [env, options.judgeEnv, ...options.configurations.map((c) => c.env)].flatMap((e) => Object.entries(e));
  return all
    .filter(([k, v]) => /KEY|SECRET|TOKEN|PASSWORD|DATABASE_URL/i.test(k) && typeof v === "string" && v.length >= 8)
    .map(([, v]) => v as string);
}
