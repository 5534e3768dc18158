/**
 * 6. Incremental prompt after the base branch is merged into a PR. The real pipeline (`runReview`, as
 * in review.ts: OctokitGitHubClient against the GitHub stand-in, GitWorkspace, RunSessions, the fake
 * agent) on real PostgreSQL. A PR changes 20 files and is reviewed; main then gets 50 new files; the
 * author merges main into the PR (a real merge commit) and the PR is reviewed again.
 * - PR 1: the merge only (no change of the PR's own). Its incremental prompt is compared with the
 *   prompt the old rule (the whole last..head diff) would have given, built in this run by the same
 *   `buildReviewPrompt` from the same inputs; the rebuilt new prompt is checked byte-for-byte against
 *   the one the agent got, so the two are comparable.
 * - PR 2: the merge plus one commit of the PR's own: its prompt must hold that change and no base file.
 */
import {
  limitDiff,
  buildReviewPrompt,
  loadRunContext,
  runReview,
  type ReviewPromptInput,
} from "../../src/pipeline/index.js";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseRepoConfig } from "../../src/config/repo/repo-config.js";
import { getRun, upsertRun } from "../../src/db/runs.js";
import { startReviewPipeline } from "../lib/review-pipeline.js";
import { INSTALLATION_ID, OWNER, REPO, REPO_ID, SMOKE, emitResult, git, round, tempRoot } from "../lib/common.js";

const cfg = { baseFiles: SMOKE ? 60 : 300, prFiles: 20, mergedFiles: 50, lines: 40 };
const root = tempRoot("base-merge");
const dataDir = join(root, "data");
mkdirSync(dataDir, { recursive: true });
const agentLog = join(root, "agent.log");

// The repository: main with `baseFiles` modules; PR n changes `prFiles` of them (3 lines each).
const content = (i: number, tag?: string) =>
  Array.from({ length: cfg.lines }, (_, j) =>
    tag && [5, 20, 35].includes(j + 1)
      ? `export const v${i}_${j + 1} = "changed in ${tag}"; // revised\n`
      : `export const v${i}_${j + 1} = ${i * 1000 + j + 1}; // line ${j + 1} of module ${i}, padding text\n`,
  ).join("");
const pathOf = (i: number) => `src/m${Math.floor(i / 100)}/file${i}.ts`;
const bare = join(root, "origin.git");
const work = join(root, "work");
const AUTHOR = ["-c", "user.name=Dev", "-c", "user.email=dev@example.com", "-c", "commit.gpgsign=false"];
const g = (...args: string[]) => git(work, [...AUTHOR, ...args]).trim();
function commit(files: Record<string, string>, message: string): string {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(work, path)), { recursive: true });
    writeFileSync(join(work, path), text);
  }
  g("add", "-A");
  g("commit", "-q", "-m", message);
  return g("rev-parse", "HEAD");
}

git(root, ["init", "-q", "--bare", "-b", "main", bare]);
git(root, ["init", "-q", "-b", "main", work]);
const baseSha = commit(
  Object.fromEntries(Array.from({ length: cfg.baseFiles }, (_, i) => [pathOf(i), content(i)])),
  "base",
);
g("push", "-q", bare, "main:refs/heads/main");
const PRS = [1, 2];
const firstHeads = new Map<number, string>();
for (const pr of PRS) {
  g("checkout", "-q", "-b", `pr-${pr}`, baseSha);
  firstHeads.set(
    pr,
    commit(
      Object.fromEntries(Array.from({ length: cfg.prFiles }, (_, i) => [pathOf(i), content(i, `pr${pr}`)])),
      `PR ${pr}`,
    ),
  );
  g("push", "-q", bare, `pr-${pr}:refs/heads/pr-${pr}`, `pr-${pr}:refs/pull/${pr}/head`);
}

const { db, handle, gh, deps } = await startReviewPipeline(root, dataDir, agentLog);

const PR_TEXT = { title: (pr: number) => `Change ${pr}`, body: "Please review.", author: "octocat" };
let deliveries = 0;
async function review(pr: number, headSha: string): Promise<string> {
  const run = await upsertRun(handle.db, {
    installationId: INSTALLATION_ID,
    repositoryId: REPO_ID,
    repositoryFullName: `${OWNER}/${REPO}`,
    cloneUrl: bare,
    prNumber: pr,
    title: PR_TEXT.title(pr),
    body: PR_TEXT.body,
    authorLogin: PR_TEXT.author,
    baseRef: "main",
    baseSha,
    headRef: `pr-${pr}`,
    headSha,
    headRepoFullName: `${OWNER}/${REPO}`,
    headCloneUrl: bare,
    maintainerCanModify: false,
    draft: false,
  });
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
  const after = await getRun(handle.db, run.id);
  if (after?.lastReviewedSha !== headSha) throw new Error(`PR ${pr}: review did not complete; see ${root}/app.log`);
  const calls = readFileSync(agentLog, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { cwd: string; prompt: string });
  const dir = deps.workspace({ repositoryId: REPO_ID, prNumber: pr } as never).dir;
  return calls.filter((c) => c.cwd === dir).at(-1)!.prompt;
}

// First reviews (the whole PR).
const firstPrompts = new Map<number, string>();
for (const pr of PRS) firstPrompts.set(pr, await review(pr, firstHeads.get(pr)!));

// main moves on: 50 new files.
g("checkout", "-q", "main");
const mainTip = commit(
  Object.fromEntries(Array.from({ length: cfg.mergedFiles }, (_, i) => [`gen/merged${i}.ts`, content(100_000 + i)])),
  "main: 50 new files",
);
g("push", "-q", bare, "main:refs/heads/main");

// The author merges main into each PR; PR 2 then adds one change of its own.
const heads = new Map<number, string>();
for (const pr of PRS) {
  g("checkout", "-q", `pr-${pr}`);
  g("merge", "-q", "--no-ff", "--no-edit", "main");
  if (pr === 2) commit({ [pathOf(0)]: content(0, "pr2 after the merge") }, "PR 2: own change after the merge");
  heads.set(pr, g("rev-parse", "HEAD"));
  g("push", "-q", "--force", bare, `pr-${pr}:refs/heads/pr-${pr}`, `+pr-${pr}:refs/pull/${pr}/head`);
}
const prompts = new Map<number, string>();
for (const pr of PRS) prompts.set(pr, await review(pr, heads.get(pr)!));

// PR 1: the prompt the agent got vs what the old rule (the whole last..head diff) would have given.
const pr = 1;
const last = firstHeads.get(pr)!;
const head = heads.get(pr)!;
const { config } = parseRepoConfig(undefined);
const ws = deps.workspace({ repositoryId: REPO_ID, prNumber: pr } as never);
const common: ReviewPromptInput = {
  repository: `${OWNER}/${REPO}`,
  pr: {
    number: pr,
    title: PR_TEXT.title(pr),
    body: PR_TEXT.body,
    author: PR_TEXT.author,
    baseRef: "main",
    headRef: `pr-${pr}`,
  },
  mode: "incremental",
  range: { from: last, to: head },
  diff: "",
  openFindings: [],
  // a later review converges from the last reviewed head (the first reviews raised nothing: no notes)
  converging: { since: last, notes: [] },
  fixerCommits: [],
  instructions: config.review.instructions,
  maxComments: config.review.max_comments,
};
const newPrompt = prompts.get(pr)!;
const rebuilt = buildReviewPrompt({ ...common, baseMerged: { from: baseSha, to: mainTip, via: "merge" } });
if (rebuilt !== newPrompt)
  throw new Error(
    "the rebuilt incremental prompt differs from the one the agent got: the comparison would not be like for like",
  );
const oldDiff = limitDiff(
  (await ws.diff(last, head, { excludeGlobs: config.review.ignore })).text,
  config.review.max_diff_bytes,
);
const oldPrompt = buildReviewPrompt({
  ...common,
  diff: oldDiff.diff,
  truncated:
    oldDiff.omittedFiles.length > 0
      ? { omittedFiles: oldDiff.omittedFiles, reason: "the diff is over the size limit" }
      : undefined,
});

const baseFilesIn = (prompt: string) =>
  Array.from({ length: cfg.mergedFiles }, (_, i) => `gen/merged${i}.ts`).filter((p) => prompt.includes(p)).length;
const bytes = (s: string) => Buffer.byteLength(s);
const own = prompts.get(2)!;
const result = {
  section: "base-merge",
  config: cfg,
  firstPromptBytes: bytes(firstPrompts.get(pr)!),
  merged: {
    newPromptBytes: bytes(newPrompt),
    oldRulePromptBytes: bytes(oldPrompt),
    ratio: round(bytes(newPrompt) / bytes(oldPrompt), 4),
    baseFilesInNew: baseFilesIn(newPrompt),
    baseFilesInOld: baseFilesIn(oldPrompt),
    saysNothingNew: newPrompt.includes("nothing new of its own to review"),
  },
  mergedWithOwnChange: {
    promptBytes: bytes(own),
    hasOwnChange: own.includes("changed in pr2 after the merge"),
    baseFiles: baseFilesIn(own),
  },
  log: join(root, "app.log"),
};
await handle.close();
await gh.stop();
await db.drop();
emitResult(result);
process.exit(0);
