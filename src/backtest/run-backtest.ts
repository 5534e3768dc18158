import { mkdir, readFile, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import pino from "pino";
import type { DatabaseHandle } from "../db/database.js";
import { migrateDatabase } from "../db/migrate-database.js";
import { openDatabase } from "../db/open-database.js";
import { createLogger } from "../logging/create-logger.js";
import type { BacktestOptions } from "./backtest-options.js";
import type { BacktestPr } from "./backtest-pr.js";
import type { BacktestReport } from "./backtest-report.js";
import { BacktestState } from "./backtest-state.js";
import { bootstrapDifference } from "./bootstrap-difference.js";
import { cloneGit, type CloneGit } from "./clone-git.js";
import { findBacktestPrs } from "./find-backtest-prs.js";
import { format } from "./format.js";
import { JudgeCache } from "./judge-cache.js";
import { matchPr, type Matcher } from "./match-pr.js";
import { parseGoldenFile } from "./parse-golden-file.js";
import { parsePairsFile } from "./parse-pairs-file.js";
import { prepareConfiguration } from "./prepare-configuration.js";
import { prepareJudge } from "./prepare-judge.js";
import type { PreparedConfiguration } from "./prepared-configuration.js";
import type { PrReviewResult } from "./pr-review-result.js";
import { renderReport } from "./render-report.js";
import { reportCsv } from "./report-csv.js";
import { ReviewFailedError, reviewPr } from "./review-pr.js";
import { scorePr } from "./score-pr.js";
import type { ScoredPr } from "./scored-pr.js";
import { StageRepository } from "./stage-repository.js";
import { summarizeConfiguration } from "./summarize-configuration.js";

/** Where a backtest talks: the report on stdout, progress on stderr; the environment its configurations start from. */
export interface BacktestIo {
  env: NodeJS.ProcessEnv;
  print: (text: string) => void;
  progress: (line: string) => void;
  /** Aborted: the review in progress stops, the report covers what finished, a rerun resumes. */
  signal?: AbortSignal;
}

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
  const log = createLogger({ level: options.logLevel, destination: pino.destination(2) });

  // 1. The PRs.
  const golden = options.golden
    ? parseGoldenFile(JSON.parse(await readFile(options.golden, "utf8")), options.golden)
    : undefined;
  const pairs = options.pairs
    ? parsePairsFile(JSON.parse(await readFile(options.pairs, "utf8")), options.pairs)
    : undefined;
  const git = cloneGit(repo);
  const { prs, missing, withoutGolden } = await findBacktestPrs(git, {
    golden,
    pairs,
    merges: options.merges,
    branch: options.branch,
    limit: options.limit,
    replay: options.replay,
    maxPushes: options.maxPushes,
  });
  if (prs.length === 0)
    throw new Error(`no pull request to backtest${missing.length ? `:\n  ${missing.join("\n  ")}` : ""}`);
  const repoName = options.repoName ?? golden?.find((g) => g.key.repo)?.key.repo ?? `backtest/${basename(repo)}`;

  // 2. The database, the configurations and the judge.
  await mkdir(join(out, "pglite"), { recursive: true });
  const database = await openDatabase({ databaseUrl: options.databaseUrl, pgliteDir: join(out, "pglite", "data") });
  try {
    await migrateDatabase(database);
    const configurations: PreparedConfiguration[] = [];
    for (const c of options.configurations)
      configurations.push(await prepareConfiguration(c, { db: database.db, log, baseEnv: io.env, outDir: out }));
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

    // 3. + 4. Review and match, PR by PR (every configuration on a PR before the next PR: a stop leaves them even).
    const results = new Map<string, Map<string, ScoredPr & { findings: PrReviewResult["findings"] }>>();
    const failures = new Map<string, { prId: string; error: string }[]>(configurations.map((c) => [c.label, []]));
    for (const c of configurations) results.set(c.label, new Map());
    let stopped: string | undefined;
    const reviewedHere: number[] = [];
    const total = prs.length * configurations.length;
    let done = 0;
    outer: for (const pr of prs) {
      for (const c of configurations) {
        let result = state.result(c.label, pr.id);
        if (!result) {
          const spent = state.spentUsd();
          if (options.maxSpendUsd !== undefined && spent >= options.maxSpendUsd) {
            const left = total - done;
            stopped = `Spend cap reached: ${format.usd(spent)} spent of the ${format.usd(options.maxSpendUsd)} allowed (--max-spend); ${left} review${left === 1 ? "" : "s"} not started. The report covers what finished; rerun with a higher --max-spend to go on.`;
            break outer;
          }
          try {
            result = await reviewPr(
              reviewDeps(c, database, log, stage, repoName, git, options.branch, state),
              pr,
              signal,
            );
          } catch (error) {
            if (signal.aborted) {
              stopped = `Interrupted: the report covers what finished; rerun the same command to resume (finished PRs are not reviewed again).`;
              break outer;
            }
            if (!(error instanceof ReviewFailedError)) throw error;
            failures.get(c.label)!.push({ prId: pr.id, error: error.message });
            io.progress(`${c.label} ${pr.id}: review failed (${error.message}); a rerun tries it again`);
            done++;
            continue;
          }
          await state.record(c.label, result);
          reviewedHere.push(result.wallMs);
        }
        const judgedBefore = judge?.spentUsd ?? 0;
        const { matches, judgeCostUsd } =
          matcher && pr.golden
            ? await matchPr(raisedOf(result), pr.golden.issues, matcher)
            : { matches: [], judgeCostUsd: 0 };
        await state.addJudgeSpend((judge?.spentUsd ?? 0) - judgedBefore);
        results
          .get(c.label)!
          .set(pr.id, { ...scorePr(result, pr.golden?.issues, matches, judgeCostUsd), findings: result.findings });
        done++;
        io.progress(
          progressLine(done, total, pr, c.label, result, state.spentUsd(), options.maxSpendUsd, reviewedHere),
        );
        if (signal.aborted) {
          stopped = `Interrupted: the report covers what finished; rerun the same command to resume (finished PRs are not reviewed again).`;
          break outer;
        }
      }
    }

    // 5. Scores and the report.
    const report: BacktestReport = {
      repo,
      ...(options.golden ? { golden: options.golden } : {}),
      matching: matcher ? (matcher.kind === "judge" ? "judge" : "location") : "none",
      prs: prs.map((p) => ({
        id: p.id,
        title: p.title,
        baseSha: p.baseSha,
        headSha: p.headSha,
        pushes: p.pushes.length,
        ...(p.golden ? { golden: p.golden.issues.length } : {}),
      })),
      missing,
      withoutGolden,
      configurations: configurations.map((c) => {
        const scored = [...results.get(c.label)!.values()];
        return {
          label: c.label,
          describe: c.describe,
          summary: summarizeConfiguration(c.label, scored),
          prs: scored,
          failures: failures.get(c.label)!,
        };
      }),
      ...(stopped ? { stopped } : {}),
      spentUsd: state.spentUsd(),
      ...(judge
        ? { judge: { asked: judge.asked, cached: judge.answered - judge.asked, costUsd: judge.spentUsd } }
        : {}),
    };
    if (configurations.length === 2) {
      const a = results.get(configurations[0]!.label)!;
      const b = results.get(configurations[1]!.label)!;
      const both = prs.map((p) => p.id).filter((id) => a.has(id) && b.has(id));
      report.comparison = {
        a: configurations[0]!.label,
        b: configurations[1]!.label,
        prs: both.length,
        resamples: options.resamples,
        seed: options.seed,
        metrics: bootstrapDifference(
          both.map((id) => a.get(id)!),
          both.map((id) => b.get(id)!),
          { resamples: options.resamples, seed: options.seed },
        ),
      };
    }
    await writeFile(join(out, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
    await writeFile(join(out, "report.csv"), reportCsv(report));
    io.print(`${renderReport(report)}\nreport: ${join(out, "report.json")} and ${join(out, "report.csv")}`);
    return report;
  } finally {
    await database.close();
  }
}

/** What a PR's review raised (posted inline or in the body): notes were never posted, so they are neither matched nor scored. */
function raisedOf(result: PrReviewResult): PrReviewResult["findings"] {
  return result.findings.filter((f) => f.placement !== "note");
}

function reviewDeps(
  c: PreparedConfiguration,
  database: DatabaseHandle,
  log: ReturnType<typeof createLogger>,
  stage: StageRepository,
  repositoryFullName: string,
  git: CloneGit,
  branch: string,
  state: BacktestState,
) {
  return {
    db: database.db,
    sessions: c.sessions,
    log: log.child({ configuration: c.label }),
    stage,
    repositoryId: c.repositoryId,
    repositoryFullName,
    workspaceDir: (n: number) => join(c.dataDir, "workspaces", String(n)),
    readDefaultBranchFile: async (path: string) => {
      if (c.configText !== undefined && path === ".github/no-mistakes.yml") return c.configText;
      const blob = (await git(["rev-parse", "--verify", "--quiet", `${branch}:${path}`], [1]))?.trim();
      return blob ? git(["cat-file", "blob", blob]) : undefined;
    },
    agentTimeoutMs: c.env.agent.timeoutMs,
    workspaceMaxBytes: c.env.workspaceMaxBytes,
    countSpend: (usd: number) => state.addUnfinishedSpend(usd),
  };
}

function progressLine(
  done: number,
  total: number,
  pr: BacktestPr,
  label: string,
  result: PrReviewResult,
  spent: number,
  cap: number | undefined,
  reviewedHere: readonly number[],
): string {
  const mean = reviewedHere.length === 0 ? undefined : reviewedHere.reduce((s, v) => s + v, 0) / reviewedHere.length;
  const left = mean === undefined || done === total ? "" : ` · ~${format.duration(mean * (total - done))} left`;
  const raised = result.findings.filter((f) => f.placement !== "note").length;
  return `[${done}/${total}] ${pr.id} ${label}: ${result.skipped ? `skipped (${result.skipped})` : `${raised} finding${raised === 1 ? "" : "s"}, ${format.usd(result.costUsd)}, ${format.seconds(result.wallMs)}`} · spent ${format.usd(spent)}${cap === undefined ? "" : ` of ${format.usd(cap)}`}${left}`;
}
