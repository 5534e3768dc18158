/**
 * 2. Review overhead and 3. incremental prompt size. The real pipeline (`runReview` with PipelineDeps
 * built as src/wiring/start-workers.ts builds them: OctokitGitHubClient over Probot's auth,
 * GitWorkspace, RunSessions, the fake agent answering at once) against a GitHub stand-in HTTP
 * server, on real PostgreSQL. Measured span = one `runReview()` call: run + config read, check run,
 * token, fetch, checkout, diff, prompt, agent turn (DB rows, session file), parse, ledger, review
 * post (incl. the placement diff), summary comment, check run update, last_reviewed_sha.
 * Floor, in the same process and interleaved: fresh `git init` + `git fetch` of base and head +
 * `git checkout` of the head + the full `git diff base...head` read into memory.
 */
import { loadRunContext, runReview, RunSessions } from "../../src/pipeline/index.js";
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { getRun, upsertRun } from "../../src/db/runs.js";
import { GitWorkspace } from "../../src/git/git-workspace.js";
import { OctokitGitHubClient } from "../../src/github/octokit-github-client.js";
import { startReviewPipeline } from "../lib/review-pipeline.js";
import { applyGitHubPacingSetting } from "../lib/github-pacing.js";
import { buildRepo, movePullHeads, type PrSpec } from "../lib/repo.js";
import { INSTALLATION_ID, OWNER, REPO, REPO_ID, SMOKE, emitResult, median, round, tempRoot } from "../lib/common.js";

const execFileP = promisify(execFile);
const githubPacing = applyGitHubPacingSetting();
const cfg = SMOKE ? { sizes: [20, 50], reps: 1, baseFiles: 80 } : { sizes: [200, 2000], reps: 3, baseFiles: 2500 };

const root = tempRoot("review");
const dataDir = join(root, "data");
mkdirSync(dataDir, { recursive: true });
const agentLog = join(root, "agent.log");

// PR numbers: warm-up 1; size S, rep r → S * 10 + r.
const prNumber = (size: number, rep: number) => size * 10 + rep;
const specs: PrSpec[] = [{ number: 1, changedFiles: 5, laterPushes: 1 }];
for (const size of cfg.sizes)
  for (let r = 0; r < cfg.reps; r++) specs.push({ number: prNumber(size, r), changedFiles: size, laterPushes: 1 });
const repo = buildRepo(root, cfg.baseFiles, specs);

const { db, handle, gh, deps } = await startReviewPipeline(root, dataDir, agentLog);

// Timing spans (bench-side wrappers; src/ is untouched): where a review's time goes.
const spans = new Map<string, number>();
function instrument(proto: any, methods: string[], prefix: string): void {
  for (const name of methods) {
    const original = proto[name];
    proto[name] = async function (this: unknown, ...args: unknown[]) {
      const t = performance.now();
      try {
        return await original.apply(this, args);
      } finally {
        spans.set(`${prefix}${name}`, (spans.get(`${prefix}${name}`) ?? 0) + performance.now() - t);
      }
    };
  }
}
instrument(
  GitWorkspace.prototype,
  ["ensure", "fetch", "checkout", "diff", "revParse", "mergeBase", "isAncestor", "hasCommit", "lineCount"],
  "git.",
);
instrument(
  OctokitGitHubClient.prototype,
  Object.getOwnPropertyNames(OctokitGitHubClient.prototype).filter((n) => n !== "constructor"),
  "github.",
);
instrument(RunSessions.prototype, ["run"], "agentTurn.");
const takeSpans = () => {
  const out = Object.fromEntries([...spans].map(([k, v]) => [k, round(v, 1)]));
  spans.clear();
  return out;
};

async function upsert(pr: number, headSha: string) {
  return upsertRun(handle.db, {
    installationId: INSTALLATION_ID,
    repositoryId: REPO_ID,
    repositoryFullName: `${OWNER}/${REPO}`,
    cloneUrl: repo.bare,
    prNumber: pr,
    title: `Change ${pr}`,
    body: "Please review.",
    authorLogin: "octocat",
    baseRef: "main",
    baseSha: repo.baseSha,
    headRef: `pr-${pr}`,
    headSha,
    headRepoFullName: `${OWNER}/${REPO}`,
    headCloneUrl: repo.bare,
    maintainerCanModify: false,
    draft: false,
  });
}

let deliveries = 0;
async function review(pr: number, headSha: string): Promise<{ ms: number; spans: Record<string, number> }> {
  const run = await upsert(pr, headSha);
  takeSpans();
  const t = performance.now();
  await runReview(
    deps,
    (await loadRunContext(deps, run.id))!,
    {
      runId: run.id,
      trigger: "synchronize",
      deliveryId: `bench-${++deliveries}`,
      senderLogin: "octocat",
      senderType: "User",
    },
    new AbortController().signal,
  );
  const ms = performance.now() - t;
  const after = await getRun(handle.db, run.id);
  if (after?.lastReviewedSha !== headSha)
    throw new Error(
      `PR ${pr}: review did not complete (last_reviewed_sha ${after?.lastReviewedSha}, head ${headSha}); see ${root}/app.log`,
    );
  return { ms, spans: takeSpans() };
}

async function floor(pr: number): Promise<{ ms: number; parts: Record<string, number> }> {
  const dir = join(root, "floor", String(pr), String(Date.now()));
  mkdirSync(dir, { recursive: true });
  const env = { PATH: process.env.PATH, HOME: dir, GIT_CONFIG_NOSYSTEM: "1" };
  const g = (args: string[]) => execFileP("git", args, { cwd: dir, env, maxBuffer: 1 << 30, encoding: "utf8" });
  const parts: Record<string, number> = {};
  const step = async (name: string, args: string[]) => {
    const t = performance.now();
    const r = await g(args);
    parts[name] = round(performance.now() - t, 1);
    return r;
  };
  const t = performance.now();
  await step("init", ["init", "-q"]);
  await step("fetch", [
    "fetch",
    "--no-tags",
    "--quiet",
    "--no-write-fetch-head",
    repo.bare,
    "+refs/heads/main:refs/nm/base",
    `+refs/pull/${pr}/head:refs/nm/head`,
  ]);
  await step("checkout", ["checkout", "--quiet", "--detach", "refs/nm/head"]);
  const diff = await step("diff", ["diff", "--no-color", "-M", "--unified=3", "refs/nm/base...refs/nm/head"]);
  const ms = performance.now() - t;
  if (diff.stdout.length === 0) throw new Error("empty floor diff");
  return { ms, parts };
}

function agentCalls(): { cwd: string; prompt: string }[] {
  return readFileSync(agentLog, "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

// Warm-up (not reported): JIT, the installation token, the pools.
await review(1, repo.heads.get(1)![0]!);
await floor(1);

const sizes: Record<string, unknown>[] = [];
for (const size of cfg.sizes) {
  const floors: number[] = [];
  const firsts: number[] = [];
  const laters: number[] = [];
  let floorParts: Record<string, number> = {};
  let firstSpans: Record<string, number> = {};
  let laterSpans: Record<string, number> = {};
  for (let r = 0; r < cfg.reps; r++) {
    const pr = prNumber(size, r);
    const head = repo.heads.get(pr)![0]!;
    // Alternate which goes first so drift and caches hit both.
    if (r % 2 === 0) {
      const f = await floor(pr);
      floors.push(f.ms);
      floorParts = f.parts;
      const a = await review(pr, head);
      firsts.push(a.ms);
      firstSpans = a.spans;
    } else {
      const a = await review(pr, head);
      firsts.push(a.ms);
      firstSpans = a.spans;
      const f = await floor(pr);
      floors.push(f.ms);
      floorParts = f.parts;
    }
  }
  for (let r = 0; r < cfg.reps; r++) {
    const pr = prNumber(size, r);
    const next = repo.heads.get(pr)![1]!;
    movePullHeads(repo.bare, [[pr, next]]); // the one-commit push
    const a = await review(pr, next);
    laters.push(a.ms);
    laterSpans = a.spans;
  }
  // 3. Prompt bytes, first (full) review vs the review after the one-commit push, same run.
  const ws = deps.workspace({ repositoryId: REPO_ID, prNumber: prNumber(size, 0) } as never).dir;
  const prompts = agentCalls()
    .filter((c) => c.cwd === ws)
    .map((c) => Buffer.byteLength(c.prompt));
  const floorMs = median(floors);
  sizes.push({
    size,
    floorMs: round(floorMs, 1),
    firstMs: round(median(firsts), 1),
    laterMs: round(median(laters), 1),
    firstRatio: round(median(firsts) / floorMs, 3),
    laterRatio: round(median(laters) / floorMs, 3),
    samples: {
      floors: floors.map((x) => round(x, 1)),
      firsts: firsts.map((x) => round(x, 1)),
      laters: laters.map((x) => round(x, 1)),
    },
    floorParts,
    firstSpans,
    laterSpans,
    promptBytes: { first: prompts[0], later: prompts[1] },
    promptRatio: prompts.length >= 2 ? round(prompts[1]! / prompts[0]!, 4) : null,
  });
}

const maxRssMb = round(process.resourceUsage().maxRSS / 1024, 1);
await handle.close();
await gh.stop();
await db.drop();
emitResult({
  section: "review",
  config: cfg,
  githubPacing,
  sizes,
  maxRssMb,
  unmatchedGitHubRequests: gh.unmatched.slice(0, 10),
  log: join(root, "app.log"),
});
process.exit(0);
