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
  /** Its message (the bot's words and the agents', neutralised). */
  message: string;
  /** The fixer's turn that made the change (null when the turn was not recorded). */
  turnId: number | null;
  fixed: Finding[];
  declined: { number: number; reason: string }[];
  summary: string;
  /** What the app ran on it before the push (set by `proveFix`). */
  proof?: FixProof;
  /** The reproducers' files the app added to it as regression tests (`fix.add_regression_tests`). */
  regressionTests?: RegressionTests;
}

/** Something the app ran on a fix that shows it does not work: the push is blocked. */
export interface ProofFailure {
  /** What it shows, in words: "NM-1's reproducer still fails", "the check `tests` passed before the fix and fails after it". */
  what: string;
  command: string;
  /** How it ended, in words: "it exited 1", "it passed its time limit". */
  why: string;
  /** The end of its output: the PR author's (and the model's) text. */
  output: string;
}

/** What the app ran on a fix before pushing it, and what that says. */
export interface FixProof {
  /** Each a reason not to push; none: the fix may go. */
  failures: ProofFailure[];
  /** The claimed findings whose reproducer now passes, with its command. */
  passing: { finding: Finding; command: string }[];
  /** The configured checks that pass on the fix (the setup among them, when there is one). */
  passed: string[];
  /** Checks that fail on the fix but did not pass before it either: reported, not blamed. */
  failedBefore: string[];
  /** Reproducers that did not run as a test on the PR's head either (broken at the review): reported, not held against the fix. */
  brokenBefore: { finding: Finding; command: string; why: string }[];
  /** Why nothing ran though the repository names checks (this app runs no repository's commands). */
  notRun?: string;
}

/** The reproducers' files added to a fix as regression tests, and those left out (with why). */
export interface RegressionTests {
  added: string[];
  leftOut: { path: string; why: string }[];
}
