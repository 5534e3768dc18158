import type { Guideline } from "../guidelines/applicable-guidelines.js";
import type { ReproducersAsked } from "./answer-format.js";
import type { ReviewerMemory } from "./reviewer-memory.js";

/** What a review turn is about; everything the prompt says comes from here. */
export interface ReviewPromptInput {
  /** `owner/name`. */
  repository: string;
  pr: { number: number; title: string; body: string; author: string; baseRef: string; headRef: string };
  /**
   * `full`: the whole PR (`range` = merge base..head). `incremental`: only the commits pushed since
   * the last review (`range` = last reviewed..head). `rewritten`: history was rewritten since the
   * last review, so the whole PR again (`range` = merge base..head).
   */
  mode: "full" | "incremental" | "rewritten";
  range: { from: string; to: string };
  /**
   * Incremental only: the PR's merge base moved from `from` to `to` since the last review (the base
   * branch merged in, or a rebase onto a newer base); `diff` then holds only the files the PR's own
   * changes touched since the last review, and is empty when there are none.
   */
  baseMerged?: { from: string; to: string; via: "merge" | "rebase" };
  diff: string;
  /** Set when `diff` is not the whole range: files left out, and why. */
  truncated?: { omittedFiles: string[]; reason: string };
  /**
   * Set on a later review (not the first, not one asked for in full): only code changed since the last
   * reviewed head `since` takes new findings, or code a change breaks (named by `broken_by`); anything
   * else about unchanged code is kept as a note unless it is an error. `notes` are those kept so far.
   */
  converging?: { since: string; notes: { id: string; path: string; line?: number; severity: string; title: string }[] };
  /** The run's open findings; the reviewer says which are resolved and restates them by id. */
  openFindings: { id: string; path: string; line?: number; severity: string; title: string; body: string }[];
  /** Commits in `range` made by the bot's fixer. */
  fixerCommits?: string[];
  /** From the repository's config on its default branch. */
  instructions?: string;
  /**
   * The maintainers' guidelines from the base branch that apply to the PR's changed paths (most specific
   * first), and the bytes a prompt may carry of them (`guidelines.max_bytes`). Absent or empty: the prompt
   * is as without guidelines.
   */
  guidelines?: { list: Guideline[]; maxBytes: number };
  maxComments?: number;
  /** Set when the repository runs reviewers' reproducers: a finding may carry one (see answer-format). */
  reproducers?: ReproducersAsked;
  /**
   * Who reads the prompt. `fresh`: a new session (first turn, fallback, rollover, reset, cold, --full):
   * the prompt stands alone, says nothing of "your" earlier reviews, and carries the ledger's closed
   * findings and the last review's summary. `resumed` with what it was told (`seen`): only what changed
   * since — the ledger's changes, an edited title or body, new instructions — and a one-line reminder of
   * the rules. Absent, or resumed without `seen`: everything, as to a session that may have forgotten.
   */
  session?:
    | { kind: "fresh"; closedFindings?: ClosedFinding[]; previousSummary?: string }
    | { kind: "resumed"; seen?: ReviewerMemory; ledger: LedgerEntry[] };
}

/** A finding no longer open: fixed, dismissed, withdrawn, deferred or outdated, with why when known. */
export interface ClosedFinding {
  id: string;
  path: string;
  line?: number;
  status: string;
  title: string;
  reason?: string;
}

/** Every finding of the run with its status, for a resumed prompt's list of what changed. */
export interface LedgerEntry extends ClosedFinding {
  severity: string;
}
