import type { RepoConfig } from "../../config/repo-config.js";
import { titlePattern } from "../../config/title-pattern.js";
import type { Run } from "../../db/schema.js";
import { LEARNINGS_BRANCH } from "../../domain/learnings-branch.js";
import type { RunJob } from "../../domain/run-job.js";
import { inlineCode } from "../render/sanitize-markdown.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import { EXPLICIT_TRIGGERS } from "./check-out-head.js";
import { matchBranchGlob } from "./match-branch-glob.js";

/** Why a PR is not reviewed automatically: the setting that says so, and the reason in words (markdown). */
export interface SkipReason {
  /** The setting, e.g. `ignore.labels`, `review.drafts`; `paused` for a PR paused by command. */
  rule: string;
  reason: string;
}

/**
 * Why this job does not review the PR, or undefined when it does. An explicit trigger (`/no-mistakes
 * review`, a re-requested check run) reviews whatever the settings say.
 */
export async function skipReason(
  deps: Pick<PipelineDeps, "isOwnBot">,
  run: Run,
  job: RunJob,
  config: RepoConfig,
): Promise<SkipReason | undefined> {
  if (EXPLICIT_TRIGGERS.has(job.trigger)) return undefined;
  if (run.state === "paused")
    return { rule: "paused", reason: "automatic reviews are paused on this PR (`/no-mistakes resume` turns them on)" };
  if (!config.review.auto) return { rule: "review.auto", reason: "automatic reviews are off (`review.auto: false`)" };
  if (run.draft && !config.review.drafts)
    return { rule: "review.drafts", reason: "the PR is a draft (`review.drafts` is off)" };
  if (job.senderType === "Bot" && job.senderLogin && !config.review.bots && !(await deps.isOwnBot(job.senderLogin))) {
    return {
      rule: "review.bots",
      reason: `the push is by another bot, ${inlineCode(job.senderLogin)} (\`review.bots\` is off)`,
    };
  }
  if (await isLearningsProposal(deps, run))
    return {
      rule: "learnings",
      reason: "it is the bot's own learnings proposal (`/no-mistakes learn`): the team reviews it",
    };
  return ignoredBy(run, config.ignore);
}

/** The learnings pull request the bot opened from its own branch of this repository. */
async function isLearningsProposal(deps: Pick<PipelineDeps, "isOwnBot">, run: Run): Promise<boolean> {
  if (run.headRef !== LEARNINGS_BRANCH || run.headRepoFullName !== run.repositoryFullName) return false;
  return deps.isOwnBot(run.authorLogin);
}

/** The first `ignore` rule the PR meets: its author, a label, its title, its base or head branch. */
function ignoredBy(run: Run, ignore: RepoConfig["ignore"]): SkipReason | undefined {
  const author = run.authorLogin.toLowerCase();
  if (ignore.authors.some((a) => a.toLowerCase() === author))
    return { rule: "ignore.authors", reason: `its author, ${inlineCode(run.authorLogin)}, is in \`ignore.authors\`` };
  const label = run.labels.find((l) => ignore.labels.some((i) => i.toLowerCase() === l.toLowerCase()));
  if (label !== undefined)
    return { rule: "ignore.labels", reason: `it has the label ${inlineCode(label)}, which is in \`ignore.labels\`` };
  const title = ignore.title.find((pattern) => titleMatches(pattern, run.title));
  if (title !== undefined)
    return { rule: "ignore.title", reason: `its title matches ${inlineCode(title)} in \`ignore.title\`` };
  const base = ignore.base_branches.find((glob) => matchBranchGlob(glob, run.baseRef));
  if (base !== undefined)
    return {
      rule: "ignore.base_branches",
      reason: `its base branch, ${inlineCode(run.baseRef)}, matches ${inlineCode(base)} in \`ignore.base_branches\``,
    };
  const head = ignore.head_branches.find((glob) => matchBranchGlob(glob, run.headRef));
  if (head !== undefined)
    return {
      rule: "ignore.head_branches",
      reason: `its head branch, ${inlineCode(run.headRef)}, matches ${inlineCode(head)} in \`ignore.head_branches\``,
    };
  return undefined;
}

/** A pattern the config accepted always compiles; one that does not (never, after parsing) matches nothing. */
function titleMatches(pattern: string, title: string): boolean {
  try {
    return titlePattern(pattern)(title);
  } catch {
    return false;
  }
}
