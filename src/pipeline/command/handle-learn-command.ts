import { LEARNINGS_BRANCH } from "../../domain/learnings-branch.js";
import type { Logger } from "pino";
import { listRepositoryDecisions } from "../../db/repository-decisions.js";
import type { CommandJob } from "../../domain/command-job.js";
import type { GitHubClient, RepoRef } from "../../github/github-client.js";
import { GitHubError } from "../../github/github-error.js";
import { readRepoConfig } from "../job/read-repo-config.js";
import { inlineCode } from "../../text/sanitize-markdown.js";
import type { CommandDeps } from "./command-deps.js";
import { deciderOf, learnedKeys, learningLine, type LearningLine } from "./learning-line.js";
import { learnedUpTo, renderLearnings } from "./render-learnings.js";

/** How far back decisions are looked for (or since the file's last learnings, when later). */
export const LEARN_HORIZON_MS = 90 * 24 * 60 * 60 * 1000;

const TITLE = "no-mistakes: learnings from the team's review decisions";

interface Place {
  path: string;
  base: { name: string; sha: string; htmlUrl: string };
  /** The file on the default branch, and on the open learnings pull request's branch. */
  onBase: { text: string; sha: string } | undefined;
  open: { number: number; htmlUrl: string } | undefined;
  onBranch: { text: string; sha: string } | undefined;
}

/**
 * `/no-mistakes learn` (writers): the repository's recent decisions made by people with write access —
 * dismissals with a reason, withdrawals a writer argued for or confirmed, findings fixed in a merged pull
 * request, from all its pull requests — not yet in the learnings file (on the default branch or on the
 * open learnings pull request) are proposed as lines of it, each naming who decided, in a pull request
 * from the bot's own branch: opened, or given a new commit when one is open. Nothing new: a reply says so.
 */
export async function handleLearnCommand(
  deps: CommandDeps,
  job: CommandJob,
  github: GitHubClient,
  ref: RepoRef,
  log: Logger,
): Promise<void> {
  const reply = (body: string) => github.createIssueComment(ref, job.prNumber, `@${job.author} ${body}`);
  const place = await readPlace(github, ref);
  const since = horizon(place);
  const decisions = await listRepositoryDecisions(deps.db, job.repositoryId, since);
  const known = new Set([...learnedKeys(place.onBase?.text), ...learnedKeys(place.onBranch?.text)]);
  const fresh = uniqueLines(decisions.map((d) => learningLine(d, place.base.htmlUrl))).filter((l) => !known.has(l.key));
  log.info({ decisions: decisions.length, fresh: fresh.length, since: since.toISOString() }, "learn");
  if (fresh.length === 0) {
    const pending = place.open ? ` The open learnings pull request is ${place.open.htmlUrl}.` : "";
    await reply(
      `Nothing new to learn: every decision since ${since.toISOString().slice(0, 10)} is already in ${inlineCode(place.path)}.${pending}`,
    );
    return;
  }
  const newest = decisions.reduce((at, d) => (d.decidedAt > at ? d.decidedAt : at), since);
  const pull = await propose(github, ref, place, fresh, newest).catch(async (error: unknown) => {
    // Refused for good (a permission, a branch rule): said on the PR, then failed as any command's failure.
    if (error instanceof GitHubError && !error.transient) {
      const needs = error.permission ? ` (the App needs ${inlineCode(error.permission)})` : "";
      await reply(`I could not propose the learnings: GitHub refused ${inlineCode(error.message)}${needs}.`);
    }
    throw error;
  });
  await reply(
    `${place.open ? "Added" : "Proposed"} ${fresh.length} learning${fresh.length === 1 ? "" : "s"} in ${pull.htmlUrl} (${inlineCode(place.path)}, decisions since ${since.toISOString().slice(0, 10)}). Merge it to make them guidelines; edit or delete lines first as you see fit.`,
  );
}

async function readPlace(github: GitHubClient, ref: RepoRef): Promise<Place> {
  const { config } = await readRepoConfig(github, ref);
  const path = config.learnings.path;
  const base = await github.getDefaultBranch(ref);
  if (base.name === LEARNINGS_BRANCH)
    throw new Error(`the default branch is ${LEARNINGS_BRANCH}: learn will not write it`);
  const [onBase, open] = await Promise.all([
    github.readBranchFile(ref, base.name, path),
    github.findOpenPullByHead(ref, LEARNINGS_BRANCH),
  ]);
  const onBranch = open ? await github.readBranchFile(ref, LEARNINGS_BRANCH, path) : undefined;
  return { path, base, onBase, open, onBranch };
}

function horizon(place: Place): Date {
  const times = [Date.now() - LEARN_HORIZON_MS, learnedUpTo(place.onBase?.text), learnedUpTo(place.onBranch?.text)];
  return new Date(Math.max(...times.map((t) => (t instanceof Date ? t.getTime() : (t ?? 0)))));
}

function uniqueLines(lines: LearningLine[]): LearningLine[] {
  const seen = new Set<string>();
  return lines.filter((l) => !seen.has(l.key) && seen.add(l.key));
}

/** Writes the file on the learnings branch (made from the default branch's head when no pull request is open) and opens or updates the pull request. */
async function propose(
  github: GitHubClient,
  ref: RepoRef,
  place: Place,
  fresh: LearningLine[],
  upTo: Date,
): Promise<{ number: number; htmlUrl: string }> {
  const current = place.open ? (place.onBranch ?? place.onBase) : place.onBase;
  const branchBlob = place.open ? place.onBranch?.sha : place.onBase?.sha;
  if (!place.open) {
    const existing = await github.getBranchSha(ref, LEARNINGS_BRANCH);
    if (existing) await github.moveBranch(ref, LEARNINGS_BRANCH, place.base.sha);
    else await github.createBranch(ref, LEARNINGS_BRANCH, place.base.sha);
  }
  const text = renderLearnings(current?.text, fresh, upTo);
  await github.putBranchFile(ref, {
    branch: LEARNINGS_BRANCH,
    path: place.path,
    text,
    message: `Learnings: ${fresh.length} decision${fresh.length === 1 ? "" : "s"} from review findings`,
    ...(branchBlob ? { blobSha: branchBlob } : {}),
  });
  const body = pullBody(place, text);
  if (place.open) {
    await github.updatePullRequestBody(ref, place.open.number, body);
    return place.open;
  }
  return github.createPullRequest(ref, { head: LEARNINGS_BRANCH, base: place.base.name, title: TITLE, body });
}

/** The pull request's description: every line it adds to the default branch's file, under who decided it. */
function pullBody(place: Place, text: string): string {
  const onBase = learnedKeys(place.onBase?.text);
  const added = text.split("\n").filter((line) => {
    const keys = [...learnedKeys(line)];
    return line.startsWith("- ") && keys.length > 0 && keys.every((k) => !onBase.has(k));
  });
  return [
    `Decisions people with write access made on review findings (dismissed with a reason, withdrawn by the reviewer on a writer's argument or with a writer's confirmation, fixed in a pull request a writer merged), proposed as lines of ${inlineCode(place.path)}. Each line names who decided and links where.`,
    "",
    ...byDecider(added),
    "Edit or delete any line before merging. Once merged, the reviewer and the fixer read the file as one of the maintainers' guidelines. `/no-mistakes learn` adds newer decisions to this pull request while it is open.",
  ].join("\n");
}

/** The lines grouped by who decided them, in order of first appearance; lines that name no one last, said so. */
function byDecider(lines: string[]): string[] {
  const groups = new Map<string | undefined, string[]>();
  for (const line of lines) {
    const by = deciderOf(line);
    groups.set(by, [...(groups.get(by) ?? []), line]);
  }
  const named = [...groups].filter(([by]) => by !== undefined);
  const unnamed = groups.get(undefined) ?? [];
  return [
    ...named.flatMap(([by, group]) => [`Decided by ${by}:`, "", ...group, ""]),
    ...(unnamed.length > 0
      ? [
          "Naming no one who decided (written by hand or by an earlier version): check them before merging.",
          "",
          ...unnamed,
          "",
        ]
      : []),
  ];
}
