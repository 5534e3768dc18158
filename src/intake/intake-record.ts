import type { PullRequestRunFields } from "../domain/pull-request.js";
import type { CommandJob } from "../domain/command-job.js";

/** Who sent an event (pushes by other bots are skipped unless the repository opts in). */
export interface Sender {
  login: string;
  type: string;
}

/** What every record carries of its delivery. */
interface Delivered {
  deliveryId: string;
  /**
   * The digest of the delivery's signed body (see WebhookIntake.accept): a body applied under one id and
   * delivered again under another within the window is a replay, recorded and not applied. Absent for a
   * delivery handed over without a signature (`receive`: tests, tools) and on journal lines of
   * versions that did not keep it: those are told apart by their id only.
   */
  bodyDigest?: string;
}

/** What a `pull_request.edited` event changed (the keys of GitHub's `changes`, those the app reads). */
export type PullRequestEdit = "title" | "body" | "base";

/**
 * A pull request opened, reopened, marked ready, pushed to, (un)labelled or edited: refresh the run, queue
 * a review (see applyPullRequests for which actions queue one).
 */
export interface PullRequestRecord extends Delivered {
  kind: "pull_request";
  action: string;
  sender: Sender;
  run: PullRequestRunFields;
  /**
   * `edited` only: what the edit changed. Absent on other actions, and on journal lines of versions that
   * did not take `edited` events (they hold none); an `edited` record without it queues nothing.
   */
  edited?: PullRequestEdit[];
}

export interface PullRequestClosedRecord extends Delivered {
  kind: "pull_request_closed";
  repositoryId: number;
  prNumber: number;
  /**
   * Set when GitHub says the PR was merged: when (ISO) and who merged it. Absent when it was closed
   * unmerged, and on journal lines of versions that did not keep it (read as not merged).
   */
  merged?: { at: string; by: string | null };
}

/** "Re-run" pressed on this app's check run. */
export interface RerunRecord extends Delivered {
  kind: "rerun";
  repositoryId: number;
  prNumber: number | null;
  headSha: string;
  sender: Sender;
}

/** A `/no-mistakes` command in a PR comment, or a comment in a review thread that may be for the reviewer. */
export interface CommandRecord extends Delivered {
  kind: "command";
  /** The webhook event (absent: issue_comment, as journals of earlier versions hold). */
  event?: "issue_comment" | "pull_request_review_comment";
  job: CommandJob;
}

/**
 * What a webhook handler keeps of a delivery: only the fields the app acts on, already validated. One
 * JSON line in the delivery journal, then applied to the database (see WebhookIntake).
 */
export type IntakeRecord = PullRequestRecord | PullRequestClosedRecord | RerunRecord | CommandRecord;
