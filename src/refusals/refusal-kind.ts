/**
 * What was refused, one word per cause: a refusals row's `kind` and refusals_total's `kind` label — the
 * same word in both, since one call (Refusals.refuse) writes both.
 */
export type RefusalKind =
  /** A command or thread reply from someone without the standing it needs. */
  | "unauthorized_command"
  /** A fix not pushed: what the fixer left (a nested repository, a gitlink, a link out of the tree, workflow files). */
  | "nested_repository"
  | "gitlink"
  | "escaping_symlink"
  | "workflow_files"
  /** No fix attempted, or not pushed: nowhere to push (a fork without maintainer edits, a deleted fork…). */
  | "push_target"
  /** A fix not pushed: the PR's head moved to another repository or branch while the fixer worked. */
  | "head_moved"
  /** A fix not pushed: GitHub refused the push (the branch moved or is protected, no permission…). */
  | "push_rejected"
  /**
   * A fix not pushed: what the app ran on it does not show it works (a reproducer it claims still fails or
   * cannot run, or a check that passed before it fails after it).
   */
  | "fix_unproven"
  /** A review, fix or conversation turn not started: the PR has spent its turns, money or fix rounds. */
  | "budget"
  /** GitHub refused a review as sent (comments it would not place went into the body). */
  | "review_refused"
  /** A webhook request that is no valid delivery: bad signature, not JSON, required headers missing. */
  | "webhook_invalid"
  /** A webhook body over GitHub's 25 MB (413). */
  | "webhook_body_too_large"
  /** A webhook body dropped while larger ones arriving together filled the shared budget (503). */
  | "webhook_bodies_crowded"
  /** A delivery the intake could not take: too many wait for the database (503). */
  | "intake_full"
  /** A delivery that arrived while the process was stopping (503). */
  | "intake_stopping";

/**
 * Kinds whose rate anyone who can reach the webhook URL decides (a flood of unsigned posts, or GitHub's
 * retries while the database is down): kept at most one row per kind a minute, with a count, and written
 * after the answer (see RefusalWindows). The others happen once per job or command, at a rate the queue
 * already bounds, and get a row each.
 */
export const WEBHOOK_REFUSAL_KINDS: ReadonlySet<RefusalKind> = new Set<RefusalKind>([
  "webhook_invalid",
  "webhook_body_too_large",
  "webhook_bodies_crowded",
  "intake_full",
  "intake_stopping",
]);
