import type { RepoConfig } from "../../config/repo/repo-config.js";
import { titlePattern } from "../../config/repo/title-pattern.js";
import type { Run } from "../../db/schema.js";
import { LEARNINGS_BRANCH } from "../../domain/learnings-branch.js";
import type { RunJob } from "../../domain/run-job.js";
import { inlineCode } from "../../text/sanitize-markdown.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import { EXPLICIT_TRIGGERS } from "./check-out-head.js";
import { matchBranchGlob } from "./match-branch-glob.js";

/** Why a PR is not reviewed automatically: the setting that says so, and the reason in words (markdown). */
export interface SkipReason {
  /** The setting, e.g. `ignore.labels`, `review.drafts`; `paused` for a PR paused by command. */
  rule: string;
  reason: string;
  /**
   * The rule matched who the PR's author is (`ignore.authors`, `review.bots`, the bot's own learnings
   * proposal): nobody can pass for another account. Every other rule judges what the author sets (title,
   * branches, draft) or is no judgement of the code at all (a pause, `review.auto`).
   */
  judgesAuthor: boolean;
}

type Deps = Pick<PipelineDeps, "isOwnBot">;

/**
 * Why this job does not review the PR, or undefined when it does. An explicit trigger (`/no-mistakes
 * review`, a re-requested check run) reviews whatever the settings say. The rules about the author come
 * first: when one matches, the PR is not reviewed whatever else it meets.
 */
export async function skipReason(
  deps: Deps,
  run: Run,
  job: RunJob,
  config: RepoConfig,
  privateSettings: ReadonlySet<string> = new Set(),
): Promise<SkipReason | undefined> {
  if (EXPLICIT_TRIGGERS.has(job.trigger)) return undefined;
  const byAuthor = await authorRule(deps, run, config);
  // an author's rule covers the author's own pushes: a head someone else pushed is someone else's code
  if (byAuthor && !pushedByOther(run, job)) return byAuthor;
  if (run.state === "paused")
    return other("paused", "automatic reviews are paused on this PR (`/no-mistakes resume` turns them on)");
  if (!config.review.auto) return other("review.auto", "automatic reviews are off (`review.auto: false`)");
  if (run.draft && !config.review.drafts) return other("review.drafts", "the PR is a draft (`review.drafts` is off)");
  return ignoredBy(run, config.ignore, privateSettings);
}

/** The rule the PR's author meets: the bot's own learnings proposal, another bot's PR, `ignore.authors`. */
async function authorRule(deps: Deps, run: Run, config: RepoConfig): Promise<SkipReason | undefined> {
  if (await isLearningsProposal(deps, run))
    return byAuthor("learnings", "it is the bot's own learnings proposal (`/no-mistakes learn`): the team reviews it");
  if (isBot(run) && !config.review.bots && !(await deps.isOwnBot(run.authorLogin)))
    return byAuthor(
      "review.bots",
      `its author is another bot, ${inlineCode(run.authorLogin)} (\`review.bots\` is off)`,
    );
  const author = run.authorLogin.toLowerCase();
  if (config.ignore.authors.some((a) => a.toLowerCase() === author))
    return byAuthor("ignore.authors", `its author, ${inlineCode(run.authorLogin)}, is in \`ignore.authors\``);
  return undefined;
}

/**
 * GitHub's account type; a login ending in `[bot]` is an app's on rows kept before the type was (a
 * person's login cannot hold brackets).
 */
function isBot(run: Run): boolean {
  return run.authorType === "Bot" || run.authorLogin.toLowerCase().endsWith("[bot]");
}

/** Events that may bring a new head: a push, and a reopen (a branch pushed to while its PR was closed). */
const HEAD_MOVING_TRIGGERS: ReadonlySet<string> = new Set(["synchronize", "reopened"]);

/**
 * Whether the newest head may hold someone else's commits: a push (or reopen) by another account, this
 * app's fixer included, or a head moved past the one the job's event named (a later event folded into
 * this job, by whoever sent it).
 */
function pushedByOther(run: Run, job: RunJob): boolean {
  if (job.headSha !== undefined && job.headSha !== run.headSha) return true;
  if (!HEAD_MOVING_TRIGGERS.has(job.trigger) || job.senderLogin === undefined) return false;
  return job.senderLogin.toLowerCase() !== run.authorLogin.toLowerCase();
}

/** The learnings pull request the bot opened from its own branch of this repository. */
async function isLearningsProposal(deps: Deps, run: Run): Promise<boolean> {
  if (run.headRef !== LEARNINGS_BRANCH || run.headRepoFullName !== run.repositoryFullName) return false;
  return deps.isOwnBot(run.authorLogin);
}

/**
 * The first `ignore` rule the PR meets besides its author: a label, its title, its base or head branch. The
 * reason quotes the pattern that matched, unless a private repository's config set the list (it is then
 * applied, never quoted where anyone who sees the PR reads it).
 */
function ignoredBy(
  run: Run,
  ignore: RepoConfig["ignore"],
  privateSettings: ReadonlySet<string>,
): SkipReason | undefined {
  const quote = (key: string, pattern: string) =>
    privateSettings.has(`ignore.${key}`) ? "a pattern (set by a private source)" : inlineCode(pattern);
  const label = run.labels.find((l) => ignore.labels.some((i) => i.toLowerCase() === l.toLowerCase()));
  if (label !== undefined)
    return other("ignore.labels", `it has the label ${inlineCode(label)}, which is in \`ignore.labels\``);
  const title = ignore.title.find((pattern) => titleMatches(pattern, run.title));
  if (title !== undefined)
    return other("ignore.title", `its title matches ${quote("title", title)} in \`ignore.title\``);
  const base = ignore.base_branches.find((glob) => matchBranchGlob(glob, run.baseRef));
  if (base !== undefined)
    return other(
      "ignore.base_branches",
      `its base branch, ${inlineCode(run.baseRef)}, matches ${quote("base_branches", base)} in \`ignore.base_branches\``,
    );
  const head = ignore.head_branches.find((glob) => matchBranchGlob(glob, run.headRef));
  if (head !== undefined)
    return other(
      "ignore.head_branches",
      `its head branch, ${inlineCode(run.headRef)}, matches ${quote("head_branches", head)} in \`ignore.head_branches\``,
    );
  return undefined;
}

function byAuthor(rule: string, reason: string): SkipReason {
  return { rule, reason, judgesAuthor: true };
}

function other(rule: string, reason: string): SkipReason {
  return { rule, reason, judgesAuthor: false };
}

/** A pattern the config accepted always compiles; one that does not (never, after parsing) matches nothing. */
function titleMatches(pattern: string, title: string): boolean {
  try {
    return titlePattern(pattern)(title);
  } catch {
    return false;
  }
}
