import type { Logger } from "pino";
import { REPO_CONFIG_PATH, parseRepoConfig, type RepoConfig } from "../config/repo-config.js";
import type { Database } from "../db/database.js";
import { insertFindings, listFindings, updateFinding } from "../db/findings.js";
import { getRun, updateRun } from "../db/runs.js";
import type { Finding, Run } from "../db/schema.js";
import { listTurns, setTurnRawAnswer } from "../db/turns.js";
import type { GitWorkspace } from "../git/git-workspace.js";
import type { GitHubClient, RepoRef } from "../github/github-client.js";
import { parseDiff, type DiffIndex } from "../github/parse-diff.js";
import type { Metrics } from "../metrics/metrics.js";
import type { RunJob } from "../domain/run-job.js";
import type { JobAttempt } from "../domain/job-attempt.js";
import { budgetRefusal, spendOf } from "./check-budget.js";
import { classifyFailure } from "./classify-failure.js";
import { ensureCheckRun } from "./ensure-check-run.js";
import { findingId } from "../domain/finding-id.js";
import { limitDiff } from "./limit-diff.js";
import { ours } from "./ours.js";
import { followRename } from "./review/follow-rename.js";
import { hasResolutionEvidence } from "./review/resolution-evidence.js";
import { sanitizeMarkdown } from "./render/sanitize-markdown.js";
import { postReview } from "./post-review.js";
import { prepareWorkspace } from "./prepare-workspace.js";
import { reconcileFindings, type ReportedFinding } from "./reconcile-findings.js";
import { checkConclusion, renderCheckOutput } from "./render/render-check-output.js";
import { codeBlock } from "./render/code-block.js";
import { reviewMarker, shortSha } from "./render/labels.js";
import { reviewState } from "./render/review-state.js";
import { renderReviewBody } from "./render/render-review-body.js";
import { renderSummary } from "./render/render-summary.js";
import { resolveFindingThreads } from "./resolve-finding-threads.js";
import { buildRepairPrompt } from "./review/build-repair-prompt.js";
import { changedSince } from "./review/changed-since.js";
import { raiseOrNote } from "./review/raise-or-note.js";
import { buildReviewPrompt } from "./review/build-review-prompt.js";
import { fingerprint } from "./review/fingerprint.js";
import { normalizePath } from "./review/normalize-path.js";
import { parseReviewerAnswer } from "./review/parse-reviewer-answer.js";
import type { RunSessions } from "./run-sessions.js";
import { upsertSummaryComment } from "./upsert-summary-comment.js";

export interface ReviewDeps {
  db: Database;
  sessions: RunSessions;
  /** Fresh sessions that check a fixer's claims (role `verifier`); absent = fixes stay unverified. */
  verifier?: RunSessions;
  log: Logger;
  github: (installationId: number) => Promise<GitHubClient>;
  workspace: (run: Run) => GitWorkspace;
  agentTimeoutMs: number;
  /** The installation token for a git URL, or undefined when the URL is not trusted with it. */
  gitToken: (url: string, token: string) => string | undefined;
  /** True when `login` is this app's own bot (its fixer pushes are reviewed). */
  isOwnBot: (login: string) => Promise<boolean>;
  /** Refusals and fix pushes are counted here; absent = nothing recorded. */
  metrics?: Metrics;
}

const EXPLICIT_TRIGGERS = new Set(["rerequested", "command"]);

/** A review job: decide whether to review, then run one reviewer turn and post it. Failures are reported on the check run. */
/** What a finished review hands on (for auto-fix); undefined when it skipped or failed. */
export interface ReviewOutcome {
  config: RepoConfig;
  github: GitHubClient;
}

export async function runReview(
  deps: ReviewDeps,
  job: RunJob,
  signal: AbortSignal,
  attempt: JobAttempt = { retry: 0, last: true },
): Promise<ReviewOutcome | undefined> {
  const lastAttempt = attempt.last;
  const log = deps.log.child({ runId: job.runId, role: "reviewer", deliveryId: job.deliveryId });
  const run = await getRun(deps.db, job.runId);
  if (!run || run.state === "closed") {
    log.info({ state: run?.state }, "run closed; nothing to review");
    return undefined;
  }
  const [owner, repo] = run.repositoryFullName.split("/") as [string, string];
  const ref: RepoRef = { owner, repo };
  const github = await deps.github(run.installationId);

  // 1. Repository config, from the default branch.
  const { config, problems } = parseRepoConfig(await github.readDefaultBranchFile(ref, REPO_CONFIG_PATH));
  const skip = await skipReason(deps, run, job, config);
  if (skip) {
    log.info({ reason: skip }, "review skipped");
    return undefined;
  }

  // 2. The review; any failure ends on the check run, in words.
  const ctx: ReviewContext = {
    run,
    ref,
    github,
    config,
    configProblems: problems,
    job,
    signal,
    log,
    retry: attempt.retry,
  };
  try {
    const reviewed = await review(deps, ctx);
    return reviewed ? { config, github } : undefined;
  } catch (error) {
    const decision = classifyFailure(error);
    log.warn({ err: error, retry: decision.retry && !lastAttempt }, "review failed");
    const checkRunId =
      ctx.checkRunId ??
      (await ensureCheckRun(github, ref, run.headSha, {
        status: "in_progress",
        title: "Reviewing",
        summary: "Preparing the review.",
      }));
    if (decision.retry && !lastAttempt) {
      await github
        .updateCheckRun(ref, checkRunId, {
          status: "queued",
          title: "Retrying",
          summary: `${decision.title}. The review will be retried.`,
        })
        .catch(() => undefined);
      throw error;
    }
    await github.updateCheckRun(ref, checkRunId, {
      status: "completed",
      conclusion: "failure",
      title: decision.title,
      summary: `The review could not be completed.\n\n${codeBlock(decision.detail)}`,
    });
    return undefined;
  }
}

async function skipReason(deps: ReviewDeps, run: Run, job: RunJob, config: RepoConfig): Promise<string | undefined> {
  if (EXPLICIT_TRIGGERS.has(job.trigger)) return undefined;
  if (run.state === "paused") return "automatic reviews are paused on this PR";
  if (!config.review.auto) return "review.auto is off";
  if (run.draft && !config.review.drafts) return "draft PR (review.drafts is off)";
  if (job.senderType === "Bot" && job.senderLogin && !config.review.bots && !(await deps.isOwnBot(job.senderLogin))) {
    return `push by another bot (${job.senderLogin}; review.bots is off)`;
  }
  return undefined;
}

interface ReviewContext {
  run: Run;
  ref: RepoRef;
  github: GitHubClient;
  config: RepoConfig;
  configProblems: string[];
  job: RunJob;
  signal: AbortSignal;
  /** Set once the head to review is known and its check run exists. */
  checkRunId?: number;
  log: Logger;
  /** > 0 when an earlier attempt of this job failed part-way. */
  retry: number;
}

async function review(deps: ReviewDeps, ctx: ReviewContext): Promise<boolean> {
  const { run, ref, github, config, log } = ctx;
  const notes = ctx.configProblems.map(
    (p) => `⚠️ \`${REPO_CONFIG_PATH}\` on the default branch has a problem, so defaults were used: ${p}`,
  );

  // 3. Workspace: fetch, check out the head, decide the range.
  const workspace = deps.workspace(run);
  const ws = await prepareWorkspace(workspace, run, deps.gitToken(run.cloneUrl, await github.installationToken()), {
    full: ctx.job.full === true,
    log,
  });
  // GitHub's refs/pull/N/head is the truth: webhooks can arrive late or out of order.
  if (ws.headSha !== run.headSha) await updateRun(deps.db, run.id, { headSha: ws.headSha });
  if (!EXPLICIT_TRIGGERS.has(ctx.job.trigger) && !ctx.job.full && run.lastReviewedSha === ws.headSha) {
    log.info({ headSha: ws.headSha }, "review skipped: this head was already reviewed");
    return false;
  }
  const turnsBefore = await listTurns(deps.db, run.id);
  const overBudget = budgetRefusal(spendOf(turnsBefore), config, "reviewer");
  if (overBudget) {
    log.info({ reason: overBudget }, "review refused: budget");
    deps.metrics?.refusals.inc({ kind: "budget" });
    if (!(await budgetNoticePosted(github, ref, run.prNumber))) {
      await github.createIssueComment(
        ref,
        run.prNumber,
        `${BUDGET_MARKER}\nno-mistakes stopped reviewing: ${overBudget}. Raise the limit in \`.github/no-mistakes.yml\` to continue.`,
      );
    }
    // the summary says so at the top: the review stopped here
    const summary = renderSummary({
      findings: await listFindings(deps.db, run.id),
      turns: turnsBefore,
      lastReviewedSha: run.lastReviewedSha,
      failOn: config.review.fail_on,
      stopped: overBudget,
    });
    await upsertSummaryComment(deps.db, github, ref, run, summary);
    return false;
  }
  // The check run, the diff and the range's authors, at once.
  const [checkRunId, rawDiff, commits] = await Promise.all([
    ensureCheckRun(github, ref, ws.headSha, {
      status: "in_progress",
      title: "Reviewing",
      summary: "The reviewer is at work.",
    }),
    // after a base merge or rebase, only the files the PR's own changes touched (none: nothing to diff)
    ws.paths?.length === 0
      ? ""
      : workspace.diff(ws.from, ws.headSha, { excludeGlobs: config.review.ignore, paths: ws.paths }),
    // the PR's own commits: not those a merge of the base brought in
    workspace.commits(ws.from, ws.headSha, { notIn: ws.mergeBase }),
  ]);
  ctx.checkRunId = checkRunId;
  const reviewDiff = limitDiff(rawDiff, config.review.max_diff_bytes);
  if (reviewDiff.omittedFiles.length > 0) {
    notes.push(
      `Partial review: the diff is larger than review.max_diff_bytes (${config.review.max_diff_bytes} bytes); ${reviewDiff.omittedFiles.length} file(s) were not reviewed: ${reviewDiff.omittedFiles
        .slice(0, 20)
        .map((f) => `\`${f}\``)
        .join(", ")}${reviewDiff.omittedFiles.length > 20 ? ", …" : ""}.`,
    );
  }

  // The fixer's commits are someone else's work, under the same scrutiny.
  const fixerCommits: string[] = [];
  for (const c of commits) if (await deps.isOwnBot(c.authorName)) fixerCommits.push(c.sha.slice(0, 12));

  // A later review (not the first, not one asked for in full) raises new findings only on what the PR's
  // own changes touched since the last reviewed head, or on code those changes break; the rest are notes.
  const last = run.lastReviewedSha;
  const since = ctx.job.full || !last || !(await workspace.hasCommit(last)) ? undefined : last;
  const changed = since === undefined ? undefined : await changedSince(workspace, since, ws);

  // 4. Reviewer turn, resumed from the run's reviewer session; one repair request if the answer is unreadable.
  const before = await listFindings(deps.db, run.id);
  const open = before.filter((f) => f.status === "open" || f.status === "fix-pushed");
  const keptNotes = before.filter((f) => f.status === "note");
  const prompt = buildReviewPrompt({
    repository: run.repositoryFullName,
    pr: {
      number: run.prNumber,
      title: run.title,
      body: run.body,
      author: run.authorLogin,
      baseRef: run.baseRef,
      headRef: run.headRef,
    },
    mode: ws.mode,
    range: { from: ws.from, to: ws.headSha },
    baseMerged: ws.baseMerged,
    diff: reviewDiff.diff,
    truncated:
      reviewDiff.omittedFiles.length > 0
        ? { omittedFiles: reviewDiff.omittedFiles, reason: "the diff is over the size limit" }
        : undefined,
    openFindings: open.map((f) => ({ ...promptFinding(f), body: f.body })),
    converging: since === undefined ? undefined : { since, notes: keptNotes.map(promptFinding) },
    fixerCommits,
    instructions: config.review.instructions,
    maxComments: config.review.max_comments,
  });
  const turn = {
    trigger: ctx.job.trigger,
    headSha: ws.headSha,
    cwd: workspace.dir,
    timeoutMs: deps.agentTimeoutMs,
    signal: ctx.signal,
  };
  const first = await deps.sessions.run(run.id, "reviewer", {
    ...turn,
    prompt,
    fresh: ctx.job.full === true || config.review.session === "cold",
  });
  let parsed = readAnswer(first.result.json);
  let turnId = first.turnId;
  if (!parsed.ok) {
    log.warn({ problems: parsed.problems }, "reviewer answer unreadable; asking for a repair");
    const repair = await deps.sessions.run(run.id, "reviewer", {
      ...turn,
      trigger: "repair",
      prompt: buildRepairPrompt(parsed.problems),
    });
    turnId = repair.turnId ?? turnId;
    parsed = readAnswer(repair.result.json);
    if (!parsed.ok) {
      if (first.turnId !== undefined) await setTurnRawAnswer(deps.db, first.turnId, first.result.text);
      if (repair.turnId !== undefined) await setTurnRawAnswer(deps.db, repair.turnId, repair.result.text);
      await github.updateCheckRun(ref, checkRunId, {
        status: "completed",
        conclusion: "failure",
        title: "The reviewer's answer could not be read",
        summary: `The reviewer answered twice without the expected JSON, so nothing was posted. Its raw answers are kept with the run's turns.\n\n${parsed.problems.map((p) => `- ${sanitizeMarkdown(p)}`).join("\n")}`,
      });
      return false;
    }
  }
  const answer = parsed.answer;

  // 5. Ledger: stable ids, fingerprints, no duplicates; paths and lines checked against the head.
  //    A finding on a renamed file's old path moves to the new one; one on a file the PR deleted is still tracked
  //    (its lines checked against the base). Only a path that exists nowhere in the PR is dropped.
  const renames = await workspace.renames(ws.mergeBase, ws.headSha);
  const reported = await Promise.all(
    answer.findings.map(async (f) =>
      brokenByInRepo(await followRename(workspace, ws, renames, f, normalizePath(f.path)), renames),
    ),
  );
  const lineCounts = new Map<string, number | undefined>();
  for (const [i, f] of reported.entries()) {
    const path = normalizePath(f.path);
    if (path === undefined) continue;
    if (!lineCounts.has(path))
      lineCounts.set(
        path,
        (await workspace.lineCount(ws.headSha, path)) ?? (await workspace.lineCount(ws.mergeBase, path)),
      );
    // a submodule has no lines: a finding on it is about the bump as a whole
    if (
      lineCounts.get(path) === undefined &&
      ((await workspace.isSubmodule(ws.headSha, path)) || (await workspace.isSubmodule(ws.mergeBase, path)))
    ) {
      lineCounts.set(path, 0);
      reported[i] = { ...f, line: undefined, end_line: undefined, suggestion: undefined };
    }
  }
  const rec = reconcileFindings({
    existing: before,
    reported,
    resolvedIds: answer.resolved,
    normalizePath: (p) => normalizePath(p),
    lineCount: (p) => lineCounts.get(p),
    fingerprint,
    turnId,
    raise: (f) => raiseOrNote(f, changed).raise,
  });
  await insertFindings(deps.db, run.id, rec.added);
  //    A note reported again where a later review raises it now (its code changed, a change breaks it, or an error) is opened and posted.
  for (const n of rec.promoted)
    await updateFinding(deps.db, run.id, n, { status: "open", introducedTurnId: turnId ?? null });
  //    A finding leaves `open` only with evidence: its lines changed since it was raised. Otherwise the
  //    reviewer's word is recorded as a claim and the finding keeps counting.
  const raisedAt = new Map((await listTurns(deps.db, run.id)).map((t) => [t.id, t.headSha]));
  const verified: number[] = [];
  for (const n of rec.resolved) {
    const finding = before.find((f) => f.number === n)!;
    // after a fixer's commit only later changes count: its own change is judged by the verifier
    const from = finding.evidenceFromSha
      ? [finding.evidenceFromSha]
      : [finding.introducedTurnId === null ? undefined : raisedAt.get(finding.introducedTurnId), run.lastReviewedSha];
    if (await hasResolutionEvidence(workspace, finding, from, ws.headSha)) {
      verified.push(n);
      await updateFinding(deps.db, run.id, n, {
        status: "fixed",
        resolvedTurnId: turnId ?? null,
        claimedResolvedSha: null,
      });
    } else {
      await updateFinding(deps.db, run.id, n, { claimedResolvedSha: ws.headSha });
    }
  }
  for (const n of rec.reopened)
    await updateFinding(deps.db, run.id, n, { status: "open", resolvedTurnId: null, claimedResolvedSha: null });
  const ledger = await listFindings(deps.db, run.id);
  const keptNow = rec.added.filter((f) => f.status === "note").length;
  log.info(
    {
      added: rec.added.length - keptNow,
      keptAsNotes: keptNow,
      promoted: rec.promoted.length,
      notReopened: rec.notReopened.length,
      restated: rec.restated.length,
      resolved: verified.length,
      claimedUnverified: rec.resolved.length - verified.length,
      dropped: rec.dropped.length,
      since,
    },
    "findings reconciled",
  );
  const bodyNotes =
    keptNow > 0
      ? [
          ...notes,
          `${keptNow} finding${keptNow === 1 ? "" : "s"} on code unchanged since the last review (${shortSha(since ?? ws.headSha)}) ${keptNow === 1 ? "was" : "were"} kept as ${keptNow === 1 ? "a note" : "notes"} in the summary, not raised.`,
        ]
      : notes;

  // 6. Post one review: inline where GitHub allows it, the rest in the body. A retried job whose
  //    earlier attempt already posted this head's review, with nothing new since, posts nothing.
  const toPost = ledger.filter((f) => f.status === "open" && f.reviewId === null);
  const resolved = ledger.filter((f) => verified.includes(f.number));
  const claimed = ledger.filter((f) => rec.resolved.includes(f.number) && !verified.includes(f.number));
  const alreadyPosted =
    ctx.retry > 0 &&
    toPost.length === 0 &&
    resolved.length === 0 &&
    (await ours(github, github.listReviews(ref, run.prNumber))).some((r) => r.body.includes(reviewMarker(ws.headSha)));
  const posted = alreadyPosted
    ? undefined
    : await postReview({
        github,
        ref,
        pr: run.prNumber,
        headSha: ws.headSha,
        findings: toPost,
        diff: await placementDiff(workspace, ws, reviewDiff.diff, toPost, renames),
        maxComments: config.review.max_comments,
        log,
        renderBody: (inBody) =>
          renderReviewBody({
            headSha: ws.headSha,
            mode: ws.mode,
            from: ws.from,
            baseMerged: ws.baseMerged,
            summary: answer.summary,
            inBody,
            resolved,
            claimed,
            dropped: rec.dropped,
            notes: bodyNotes,
          }),
      });
  for (const f of posted ? toPost : []) {
    const comment = posted!.comments.get(f.number);
    await updateFinding(deps.db, run.id, f.number, {
      reviewId: posted!.reviewId,
      commentId: comment?.id ?? null,
      commentNodeId: comment?.nodeId ?? null,
    });
  }
  await resolveFindingThreads(github, ref, run.prNumber, ws.headSha, resolved, log);

  // 7. Summary, check run, and only then the reviewed head moves.
  //    The state (open findings, converged, converging, stopped) heads both.
  const final = await listFindings(deps.db, run.id);
  const turns = await listTurns(deps.db, run.id);
  const stopped = budgetRefusal(spendOf(turns), config, "reviewer");
  const state = reviewState({
    findings: final,
    turns,
    lastReviewedSha: ws.headSha,
    failOn: config.review.fail_on,
    stopped,
  });
  const summary = renderSummary({
    findings: final,
    turns,
    lastReviewedSha: ws.headSha,
    notes,
    failOn: config.review.fail_on,
    stopped,
  });
  await Promise.all([
    upsertSummaryComment(deps.db, github, ref, run, summary),
    github.updateCheckRun(ref, checkRunId, {
      status: "completed",
      conclusion: checkConclusion(final, config.review.fail_on),
      ...renderCheckOutput(final, notes, state),
    }),
  ]);
  await updateRun(deps.db, run.id, { lastReviewedSha: ws.headSha });
  log.info(
    {
      reviewId: posted?.reviewId ?? "already posted",
      mode: ws.mode,
      headSha: ws.headSha,
      open: openCount(final),
      state: state?.state,
    },
    "review posted",
  );
  return true;
}

/** `broken_by` as the bot keys paths: repository-relative, on a renamed file's new path; dropped when it names no file in the repository. */
function brokenByInRepo(finding: ReportedFinding, renames: ReadonlyMap<string, string>): ReportedFinding {
  if (!finding.broken_by) return finding;
  const path = normalizePath(finding.broken_by.path);
  if (path === undefined) return { ...finding, broken_by: undefined };
  return { ...finding, broken_by: { path: renames.get(path) ?? path, line: finding.broken_by.line } };
}

function readAnswer(json: unknown): ReturnType<typeof parseReviewerAnswer> {
  if (json === undefined) return { ok: false, problems: ["the final message holds no JSON object"] };
  return parseReviewerAnswer(json);
}

function openCount(findings: Finding[]): number {
  return findings.filter((f) => f.status === "open" || f.status === "fix-pushed").length;
}

const BUDGET_MARKER = "<!-- no-mistakes:budget -->";

async function budgetNoticePosted(github: GitHubClient, ref: RepoRef, pr: number): Promise<boolean> {
  return (await ours(github, github.listIssueComments(ref, pr))).some((c) => c.body.startsWith(BUDGET_MARKER));
}

/**
 * The PR's diff (merge-base..head, as GitHub shows it) for the files that carry findings to post: the
 * review's own diff when it covers that range, and a diff of just the other files otherwise.
 */
async function placementDiff(
  workspace: GitWorkspace,
  ws: { from: string; mergeBase: string; headSha: string },
  reviewed: string,
  findings: Finding[],
  renames: ReadonlyMap<string, string>,
): Promise<DiffIndex> {
  const paths = [...new Set(findings.map((f) => f.path).filter((p): p is string => !!p))];
  if (paths.length === 0) return parseDiff("");
  // The review's diff holds whole files; ignored or omitted files are simply absent from it.
  const reused = ws.from === ws.mergeBase ? reviewed : "";
  const known = parseDiff(reused);
  const missing = paths.filter((p) => !known.files.has(p));
  if (missing.length === 0) return known;
  // A renamed file is diffed with its old path too, or git (and so this diff) would call it new.
  const oldPath = new Map([...renames].map(([from, to]) => [to, from]));
  const pathspec = missing.flatMap((p) => (oldPath.has(p) ? [oldPath.get(p)!, p] : [p]));
  const rest = await workspace.diff(ws.mergeBase, ws.headSha, { paths: pathspec });
  return parseDiff(reused === "" || reused.endsWith("\n") ? `${reused}${rest}` : `${reused}\n${rest}`);
}

/** A ledger finding as the review prompt lists it. */
function promptFinding(f: Finding): { id: string; path: string; line?: number; severity: string; title: string } {
  return {
    id: findingId(f.number),
    path: f.path ?? "",
    line: f.line ?? undefined,
    severity: f.severity,
    title: f.title,
  };
}
