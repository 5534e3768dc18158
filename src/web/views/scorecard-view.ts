/** How a set of posted findings ended (notes are never posted and never counted). */
export interface OutcomeCounts {
  posted: number;
  fixed: number;
  dismissed: number;
  withdrawn: number;
  openAtMerge: number;
  abandoned: number;
  /** Posted, with no outcome yet: still open on an open PR. */
  open: number;
}

/** One line of a breakdown: a severity, a reproduction, a repository. */
export interface ScorecardGroup extends OutcomeCounts {
  label: string;
}

/** What one agent and model did: the findings its review turns raised, and all its turns. */
export interface AgentModelRow extends OutcomeCounts {
  agent: string;
  /** The model id its CLI sent; null for turns recorded before it was kept, or an agent that could not say. */
  model: string | null;
  turns: number;
  resumedTurns: number;
  spendUsd: number;
  /** Median seconds from the push (the PR's update GitHub reported) to the review's end; null without a sample. */
  pushToReviewSeconds: number | null;
}

/** One week's findings, by the week they were raised (UTC, weeks start on Monday). */
export interface ScorecardWeek {
  weekStart: Date;
  posted: number;
  fixed: number;
  /** Dismissed or withdrawn. */
  noise: number;
}

/** The bot's scorecard over a period: what became of what it said, and what that cost. */
export interface Scorecard {
  /** Findings raised and turns started from here on are counted. */
  since: Date;
  total: OutcomeCounts;
  byAgentModel: AgentModelRow[];
  bySeverity: ScorecardGroup[];
  /** What the app saw when it ran the finding's reproducer: reproduced, not-reproduced, broken, none. */
  byReproduction: ScorecardGroup[];
  byRepository: ScorecardGroup[];
  turns: number;
  resumedTurns: number;
  spendUsd: number;
  pushToReviewSeconds: number | null;
  /** Median seconds from a finding's creation to the event that decided it, per outcome that has one. */
  secondsToOutcome: { outcome: string; seconds: number }[];
  /** Oldest first, every week of the period (empty weeks included). */
  weeks: ScorecardWeek[];
}

/** Fixed ÷ posted; null when nothing was posted. */
export function addressedRate(c: Pick<OutcomeCounts, "posted" | "fixed">): number | null {
  return c.posted === 0 ? null : c.fixed / c.posted;
}

/** (Dismissed + withdrawn) ÷ posted; null when nothing was posted. */
export function noiseRate(c: Pick<OutcomeCounts, "posted" | "dismissed" | "withdrawn">): number | null {
  return c.posted === 0 ? null : (c.dismissed + c.withdrawn) / c.posted;
}

/** Spend ÷ fixed findings; null when nothing was fixed. */
export function costPerAddressed(spendUsd: number, fixed: number): number | null {
  return fixed === 0 ? null : spendUsd / fixed;
}

export function emptyCounts(): OutcomeCounts {
  return { posted: 0, fixed: 0, dismissed: 0, withdrawn: 0, openAtMerge: 0, abandoned: 0, open: 0 };
}
