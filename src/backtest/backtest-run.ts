import { join } from "node:path";
import type { Logger } from "pino";
import type { DatabaseHandle } from "../db/database.js";
import type { BacktestIo } from "./backtest-io.js";
import type { BacktestOptions } from "./cli/backtest-options.js";
import { StageRepository } from "./clone/stage-repository.js";
import { appCodeIdentity } from "./configurations/app-code-identity.js";
import { prepareConfiguration } from "./configurations/prepare-configuration.js";
import type { PreparedConfiguration } from "./configurations/prepared-configuration.js";
import type { GatheredPrs } from "./gather-prs.js";
import type { Judge } from "./judge/judge.js";
import { JudgeCache } from "./judge/judge-cache.js";
import { prepareJudge } from "./judge/prepare-judge.js";
import { BacktestState } from "./replay/backtest-state.js";
import type { Matcher } from "./score/match-pr.js";

/** A backtest made ready: its PRs, its configurations and judge, its stored results — what reviewing and the report read. */
export interface BacktestRun extends GatheredPrs {
  /** The clone, resolved. */
  repo: string;
  /** The output directory (--out), resolved. */
  out: string;
  options: BacktestOptions;
  io: BacktestIo;
  signal: AbortSignal;
  log: Logger;
  database: DatabaseHandle;
  configurations: PreparedConfiguration[];
  state: BacktestState;
  /** How findings are matched to real issues: none without a golden file. */
  matcher?: Matcher;
  judge?: Judge;
  stage: StageRepository;
}

/**
 * The run's configurations prepared on the backtest's database, its state opened (each configuration told
 * what it resumes or sets aside), the judge and the matcher when there is a golden file, the stage repository.
 */
export async function openBacktestRun(
  base: GatheredPrs & Pick<BacktestRun, "repo" | "out" | "options" | "io" | "signal" | "log" | "database">,
): Promise<BacktestRun> {
  const { out, options, io, log, golden } = base;
  const configurations: PreparedConfiguration[] = [];
  const review = {
    git: base.git,
    branch: options.branch,
    replay: options.replay,
    maxPushes: options.maxPushes,
    repoName: base.repoName,
    appIdentity: appCodeIdentity(),
  };
  for (const c of options.configurations)
    configurations.push(
      await prepareConfiguration(c, { db: base.database.db, log, baseEnv: io.env, outDir: out, review }),
    );
  const state = await openState(join(out, "state.json"), configurations, io);
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
          signal: base.signal,
        })
      : undefined;
  const matcher: Matcher | undefined = !golden
    ? undefined
    : judge
      ? { kind: "judge", judge }
      : { kind: "location", toleranceLines: options.lineTolerance };
  const stage = await StageRepository.open(join(out, "stage.git"), base.repo);
  return { ...base, configurations, state, matcher, judge, stage };
}

/** The state file, each configuration's stored results reused (same fingerprint) or set aside, and said. */
async function openState(
  path: string,
  configurations: readonly PreparedConfiguration[],
  io: BacktestIo,
): Promise<BacktestState> {
  const state = await BacktestState.open(path);
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
  return state;
}
