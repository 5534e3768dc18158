import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BacktestOptions } from "../../src/backtest/cli/backtest-options.js";
import { BacktestRepo, lines } from "./backtest-repo.js";

export const GOLDEN_FIXTURE = join(import.meta.dirname, "fixtures", "benchmark-golden.json");

/** A reviewer's finding as its JSON answer carries it. */
const finding = (path: string, line: number, severity: string, title: string, body: string) => ({
  path,
  line,
  severity,
  action: severity === "info" ? "no-op" : "ask-user",
  title,
  body,
});

export const F1 = finding("src/parser.ts", 3, "error", "Unchecked index", "tokens[i + 1] may be out of range.");
export const F2 = finding("src/parser.ts", 7, "warning", "Naming", "x_y is not a descriptive name.");
export const F3 = finding("src/cache.ts", 4, "error", "Race in cache fill", "The check and the set are not atomic.");
export const F4 = finding("src/cache.ts", 2, "info", "Typo", "chache is misspelt.");
export const F5 = finding("src/logger.ts", 5, "error", "Secrets logged", "request.body may hold secrets.");

const review = (title: string, findings: unknown[], costUsd: number) => ({
  role: "reviewer",
  match: title,
  costUsd,
  answer: { summary: `${findings.length} findings.`, findings, resolved: [] },
});

/** A (the team's): two findings on the parser, two on the cache, none on the logger; $0.10 a review. */
export const REVIEWER_A = [
  review("Add parser", [F1, F2], 0.1),
  review("Add cache", [F3, F4], 0.1),
  review("Add logger", [], 0.1),
];
/** B: only the real bugs, the logger's included; $0.30 a review. */
export const REVIEWER_B = [
  review("Add parser", [F1], 0.3),
  review("Add cache", [F3], 0.3),
  review("Add logger", [F5], 0.3),
];

const same = (finding: string, issue: string, confidence: number) => ({
  role: "verifier",
  matchAll: [finding, issue],
  costUsd: 0.01,
  answer: { same: true, confidence, reason: "the same problem" },
});
/** The judge: the right matches, one wrong one (the typo "is" the expiry issue), "no" to everything else; $0.01 a question. */
export const JUDGE = [
  same("Unchecked index", "without checking that i + 1", 0.9),
  same("Race in cache fill", "a race between the check", 0.95),
  same("Typo", "never expire", 0.6),
  same("Secrets logged", "secrets included", 0.8),
  { role: "verifier", costUsd: 0.01, answer: { same: false, confidence: 0.9, reason: "different issues" } },
];

/** The repository the golden fixture's PR URLs name: the clone's origin. */
export const WIDGETS = "ai-code-review-evaluation/widgets-eval";

/** The team's clone of WIDGETS: three merged PRs (#1 parser, #2 cache, #3 logger), each one commit, after `history`. */
export function makeRepo(dir: string, history: (repo: BacktestRepo) => void = () => {}): BacktestRepo {
  const repo = new BacktestRepo(dir);
  repo.git("remote", "add", "origin", `https://github.com/${WIDGETS}.git`);
  history(repo);
  repo.mergePr(1, "Add parser", [
    { "src/parser.ts": lines("parser", 10, { 3: "const next = tokens[i + 1];", 7: "let x_y = 0;" }) },
  ]);
  repo.mergePr(2, "Add cache", [
    { "src/cache.ts": lines("cache", 10, { 2: "// chache", 4: "if (!cache.has(k)) cache.set(k, load(k));" }) },
  ]);
  repo.mergePr(3, "Add logger", [{ "src/logger.ts": lines("logger", 10, { 5: "log(request.body);" }) }]);
  return repo;
}

/** Scenario files and logs for a world under `root`; the environment a configuration gives the fake agent. */
export function fakeEnv(root: string, name: string, steps: unknown[]): Record<string, string> {
  const scenario = join(root, `${name}-scenario.json`);
  writeFileSync(scenario, JSON.stringify({ steps }));
  return { AGENT: "fake", FAKE_AGENT_SCENARIO: scenario, FAKE_AGENT_LOG: join(root, `${name}-calls.jsonl`) };
}

/** The agent calls a fake agent logged (role and prompt of each). */
export function calls(root: string, name: string): { role: string; prompt: string }[] {
  try {
    return readFileSync(join(root, `${name}-calls.jsonl`), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { role: string; prompt: string });
  } catch {
    return [];
  }
}

/** Options for a backtest of `repo` with the benchmark-shaped golden file and the given configurations. */
export function options(
  repo: string,
  out: string,
  configurations: BacktestOptions["configurations"],
  extra: Partial<BacktestOptions> = {},
): BacktestOptions {
  return {
    repo,
    golden: GOLDEN_FIXTURE,
    merges: false,
    branch: "HEAD",
    replay: false,
    acceptOtherRepos: false,
    out,
    configurations,
    matching: "judge",
    judgeEnv: {},
    lineTolerance: 5,
    resamples: 1000,
    seed: 7,
    logLevel: "silent",
    ...extra,
  };
}

/** The environment a backtest starts from in the tests: nothing of this process's (no DATABASE_URL, no keys). */
export function baseEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, AGENT_SANDBOX: "off" };
}
