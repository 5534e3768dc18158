import { mkdir, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import pino from "pino";
import { migrateDatabase } from "../db/migrate-database.js";
import { openDatabase } from "../db/open-database.js";
import { createLogger } from "../logging/create-logger.js";
import { appCodeIdentity } from "./configurations/app-code-identity.js";
import type { BacktestIo } from "./backtest-io.js";
import type { BacktestOptions } from "./cli/backtest-options.js";
import type { BacktestReport } from "./backtest-report.js";
import { BacktestState } from "./replay/backtest-state.js";
import { cloneGit } from "./clone/clone-git.js";
import { cloneRepositories } from "./clone/clone-repositories.js";
import { findBacktestPrs } from "./prs/find-backtest-prs.js";
import { goldenFromHistory } from "./prs/golden-from-history.js";
import type { GoldenPr } from "./prs/golden-pr.js";
import { goldenRepositoriesLine } from "./prs/golden-repositories-line.js";
import { JudgeCache } from "./judge/judge-cache.js";
import type { Matcher } from "./score/match-pr.js";
import { parseGoldenFile } from "./prs/parse-golden-file.js";
import { parsePairsFile } from "./prs/parse-pairs-file.js";
import { pathlessIssuesWarning } from "./prs/pathless-issues-warning.js";
import { prepareConfiguration } from "./configurations/prepare-configuration.js";
import { prepareJudge } from "./judge/prepare-judge.js";
import { readJsonFile } from "./prs/read-json-file.js";
import type { PreparedConfiguration } from "./configurations/prepared-configuration.js";
import { renderReport } from "./render-report.js";
import { reviewEachPr } from "./review-each-pr.js";
import { assembleReport } from "./assemble-report.js";
import { reportCsv } from "./score/report-csv.js";
import { StageRepository } from "./clone/stage-repository.js";
import { unknownRepositoryWarning } from "./prs/unknown-repository-warning.js";

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
  // a golden or pairs file that is not JSON is said before anything else runs
  const goldenFile = options.golden ? parseGoldenFile(await readJsonFile(options.golden), options.golden) : undefined;
  const pairs = options.pairs ? parsePairsFile(await readJsonFile(options.pairs), options.pairs) : undefined;
  const git = cloneGit(repo);
  const cloneRepos = await cloneRepositories(git);
  const golden =
    goldenFile ??
    (options.fromHistory
      ? await readHistory(options.fromHistory, options.repoName ?? cloneRepos[0], options.limit, io)
      : undefined);
  const warnings: string[] = [];
  const warn = (line: string | undefined) => {
    if (!line) return;
    warnings.push(line);
    io.progress(line);
  };
  if (golden) warn(goldenRepositoriesLine(golden, cloneRepos, options.acceptOtherRepos));
  warn(
    unknownRepositoryWarning(
      [...(golden ?? []).map((g) => g.key), ...(pairs ?? []).map((p) => p.key)],
      cloneRepos,
      options.acceptOtherRepos,
    ),
  );
  const { prs, missing, otherRepository, flagged, withoutGolden } = await findBacktestPrs(git, {
    golden,
    pairs,
    merges: options.merges,
    branch: options.branch,
    limit: options.limit,
    replay: options.replay,
    maxPushes: options.maxPushes,
    cloneRepos,
    acceptOtherRepos: options.acceptOtherRepos,
  });
  for (const o of otherRepository) io.progress(`skipped, another repository's: ${o}`);
  for (const f of flagged) io.progress(`skipped, flagged in the golden file: ${f}`);
  const left = [...missing, ...otherRepository, ...flagged.map((f) => `flagged in the golden file: ${f}`)];
  if (prs.length === 0) throw new Error(`no pull request to backtest${left.length ? `:\n  ${left.join("\n  ")}` : ""}`);
  const repoName =
    options.repoName ??
    prs.find((p) => p.golden?.key.repo)?.golden?.key.repo ??
    cloneRepos[0] ??
    `backtest/${basename(repo)}`;
  if (golden && options.matching === "location") warn(pathlessIssuesWarning(prs));

  // 2. The database, the configurations and the judge.
  await mkdir(join(out, "pglite"), { recursive: true });
  const database = await openDatabase({ databaseUrl: options.databaseUrl, pgliteDir: join(out, "pglite", "data") });
  try {
    await migrateDatabase(database);
    const review = {
      git,
      branch: options.branch,
      replay: options.replay,
      maxPushes: options.maxPushes,
      repoName,
      appIdentity: appCodeIdentity(),
    };
    const configurations: PreparedConfiguration[] = [];
    for (const c of options.configurations)
      configurations.push(
        await prepareConfiguration(c, { db: database.db, log, baseEnv: io.env, outDir: out, review }),
      );
    const state = await BacktestState.open(join(out, "state.json"));
    for (const c of configurations) {
      const { reused, dropped } = state.useConfiguration(c.label, c.fingerprint);
      if (reused > 0)
        io.progress(
          `${c.label}: resuming, ${reused} PR${reused === 1 ? "" : "s"} already reviewed (no agent call for ${reused === 1 ? "it" : "them"})`,
        );
      if (dropped > 0)
        io.progress(
          `${c.label}: the configuration changed since the last run; its ${dropped} earlier result${dropped === 1 ? "" : "s"} set aside`,
        );
    }
    const cache = await JudgeCache.open(join(out, "judge-cache.json"));
    const judge =
      golden && options.matching === "judge"
        ? await prepareJudge({
            first: configurations[0]!,
            judgeEnv: options.judgeEnv,
            baseEnv: io.env,
            outDir: out,
            cache,
            log,
            signal,
          })
        : undefined;
    const matcher: Matcher | undefined = !golden
      ? undefined
      : judge
        ? { kind: "judge", judge }
        : { kind: "location", toleranceLines: options.lineTolerance };
    const stage = await StageRepository.open(join(out, "stage.git"), repo);

    // 3. + 4. Review and match, PR by PR.
    const reviewed = await reviewEachPr({
      prs,
      configurations,
      state,
      matcher,
      judge,
      options,
      io,
      signal,
      log,
      database,
      stage,
      repoName,
      git,
    });

    // 5. Scores, the A/B difference, the report.
    const report = assembleReport({
      repo,
      options,
      prs,
      missing,
      otherRepository,
      flagged,
      withoutGolden,
      warnings,
      configurations,
      matcher,
      judge,
      state,
      ...reviewed,
    });
    await writeFile(join(out, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
    await writeFile(join(out, "report.csv"), reportCsv(report));
    io.print(`${renderReport(report)}\nreport: ${join(out, "report.json")} and ${join(out, "report.csv")}`);
    return report;
  } finally {
    await database.close();
  }
}

/** The app's own outcomes of `repository`'s merged PRs as the golden file (`--from-history`). */
async function readHistory(
  from: NonNullable<BacktestOptions["fromHistory"]>,
  repository: string | undefined,
  limit: number | undefined,
  io: BacktestIo,
): Promise<GoldenPr[]> {
  if (!repository)
    throw new Error("--from-history: name the repository (--repo-name owner/repo): the clone has no GitHub remote");
  const history = await openDatabase(from);
  try {
    const golden = await goldenFromHistory(history.db, repository, limit).catch((error: unknown) => {
      // a database the app has not migrated since findings got their outcomes
      if (/outcome/.test((error as Error).message))
        throw new Error(
          `--from-history: the app's database has no finding outcomes yet; start this version of the app on it once (it migrates): ${(error as Error).message}`,
          { cause: error },
        );
      throw error;
    });
    const issues = golden.reduce((n, pr) => n + pr.issues.length, 0);
    io.progress(
      `golden file from history: ${golden.length} merged PR${golden.length === 1 ? "" : "s"} of ${repository} with decided findings, ${issues} fixed (real issues)`,
    );
    return golden;
  } finally {
    await history.close();
  }
}

/** Every secret-looking value the backtest's environments hold (model keys, tokens): scrubbed from its log lines. */
function secretsOf(options: BacktestOptions, env: NodeJS.ProcessEnv): string[] {
  const all = [env, options.judgeEnv, ...options.configurations.map((c) => c.env)].flatMap((e) => Object.entries(e));
  return all
    .filter(([k, v]) => /KEY|SECRET|TOKEN|PASSWORD|DATABASE_URL/i.test(k) && typeof v === "string" && v.length >= 8)
    .map(([, v]) => v as string);
}
