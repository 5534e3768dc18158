/** One agent turn, as the timeline shows it. */
export interface TurnRow {
  id: number;
  role: string;
  trigger: string;
  headSha: string;
  agent: string;
  /** cold | started | resumed | fallback | rollover; null while starting. */
  sessionMode: string | null;
  sessionId: string | null;
  fallbackReason: string | null;
  status: string;
  startedAt: Date;
  finishedAt: Date | null;
  tokensIn: number;
  tokensOut: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** The turn's largest request, in input tokens: the session's size after it. */
  contextTokens: number;
  costUsd: number;
  error: string | null;
  /** The setups, checks and reproducers the turn ran: how many, and their time added up (the turn's cost in time besides the agent's). */
  executions: number;
  executionMs: number;
}

/** One run of the repository's own code (an `executions` row): a setup, a check or a reproducer. */
export interface ExecutionRow {
  id: number;
  turnId: number | null;
  /** The finding whose reproducer it ran (its number in the run). */
  findingNumber: number | null;
  headSha: string;
  /** setup | check | reproducer */
  kind: string;
  /** review | before | after */
  phase: string;
  name: string;
  command: string;
  /** passed | failed | timed-out | limit | error; reproduced | not-reproduced | broken */
  outcome: string;
  exitCode: number | null;
  durationMs: number;
  /** A setup reused from the cache. */
  cached: boolean;
  /** The end of what it printed, at most as much as the page shows (the PR author's text). */
  outputTail: string;
  /** How long the stored output tail is, of which `outputTail` is the end. */
  outputLength: number;
  at: Date;
}

/** A role's current agent session in the run. */
export interface SessionRow {
  role: string;
  agent: string;
  sessionId: string;
  contextTokens: number;
  overheadTokens: number;
  updatedAt: Date;
  /** Turns that ran in this session id. */
  turns: number;
}

/** Something that happened to a finding (a finding_events row). */
export interface FindingEventRow {
  kind: string;
  actor: string | null;
  turnId: number | null;
  detail: string | null;
  /** Where on the PR's GitHub page it happened, relative to the PR's address (a `pullRequestAnchor`). */
  url: string | null;
  at: Date;
}

export interface FindingRow {
  number: number;
  severity: string;
  action: string;
  title: string;
  body: string;
  path: string | null;
  line: number | null;
  endLine: number | null;
  status: string;
  dismissReason: string | null;
  verification: string | null;
  ruling: string | null;
  rulingReason: string | null;
  rulingBy: string | null;
  rulingConfirmation: string | null;
  rulingConfirmedBy: string | null;
  /** The bot's reply in the finding's thread that gave the ruling. */
  rulingReplyId: number | null;
  /** The inline review comment carrying it, when posted inline. */
  commentId: number | null;
  reviewId: number | null;
  introducedTurnId: number | null;
  resolvedTurnId: number | null;
  /** Oldest first. */
  events: FindingEventRow[];
  /** Its reproducer's runs, oldest first. */
  executions: ExecutionRow[];
}

/** A command or thread reply someone asked for in the PR. */
export interface CommandRow {
  id: number;
  author: string;
  /** issue_comment | review_comment */
  source: string;
  commentId: number;
  /** The parsed command's name (fix, review, ask, reply, ...). */
  name: string;
  status: string;
  createdAt: Date;
  finishedAt: Date | null;
}

/** A PR's run: everything the bot did in it. */
export interface RunView {
  run: {
    id: number;
    repositoryId: number;
    repositoryFullName: string;
    prNumber: number;
    title: string;
    author: string;
    baseRef: string;
    headRef: string;
    headSha: string;
    lastReviewedSha: string | null;
    state: string;
    draft: boolean;
    labels: string[];
    summaryCommentId: number | null;
    createdAt: Date;
    updatedAt: Date;
  };
  /** Oldest first. */
  turns: TurnRow[];
  sessions: SessionRow[];
  /** By number. */
  findings: FindingRow[];
  /** Oldest first. */
  commands: CommandRow[];
  /** Every setup, check and reproducer run in the run, oldest first. */
  executions: ExecutionRow[];
  totals: {
    turns: number;
    costUsd: number;
    tokensIn: number;
    tokensOut: number;
    cacheReadTokens: number;
    cacheWriteTokens: number;
    /** Time spent running the repository's own code (setups, checks, reproducers). */
    executionMs: number;
  };
}
