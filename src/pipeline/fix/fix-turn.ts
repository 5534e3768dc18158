import type { Logger } from "pino";
import type { Finding, Run } from "../../db/schema.js";
import type { GitWorkspace } from "../../git/git-workspace.js";
import type { RunContext } from "../job/run-context.js";
import type { PushTarget } from "./push-target.js";

export interface FixRequest {
  /** command (a maintainer asked) or auto-fix (fix.auto after a review) */
  trigger: "command" | "auto-fix";
  findings: "default" | "all" | "auto-fix" | number[];
  note?: string;
  /** Who asked, for the reply. */
  requestedBy?: string;
}

/** One fixer turn on a run, as its steps pass it along. */
export interface FixTurn {
  ctx: RunContext;
  /** The run as this fix found it. */
  run: Run;
  request: FixRequest;
  signal: AbortSignal;
  log: Logger;
  /** `@login ` of who asked (empty for auto-fix), at the start of every reply. */
  who: string;
  /** A comment on the PR: every way the fix ends says so in one. */
  reply(body: string): Promise<void>;
}

/** The open findings the fixer is asked to fix, and what the reply says of asked-for numbers that are not open. */
export interface ChosenFindings {
  chosen: Finding[];
  notOpenNote: string;
}

/** Where the fix can go: the PR's head repository and branch. */
export type FixTarget = Exclude<PushTarget, { refusal: string }>;

/** The head branch's tip, checked out in the run's workspace, where the fixer works and the fix is pushed. */
export interface BranchTip {
  target: FixTarget;
  workspace: GitWorkspace;
  /** The installation token for the push URL, when that URL is trusted with it. */
  token: string | undefined;
  /** The tip the fixer started from: the push is a fast-forward from here. */
  startSha: string;
}

/** The bot's commit of what the fixer left, and what the fixer said of it (only findings it was asked about). */
export interface FixCommit {
  sha: string;
  /** The fixer's turn that made the change (null when the turn was not recorded). */
  turnId: number | null;
  fixed: Finding[];
  declined: { number: number; reason: string }[];
  summary: string;
}
