import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/** Binary column (exported agent session state, gzip-compressed). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

/** One pull request's life in the bot: unique per (repository, PR number). */
export const runs = pgTable(
  "runs",
  {
    id: serial("id").primaryKey(),
    installationId: bigint("installation_id", { mode: "number" }).notNull(),
    repositoryId: bigint("repository_id", { mode: "number" }).notNull(),
    repositoryFullName: text("repository_full_name").notNull(),
    /** The base repository's clone URL (GitHub or GitHub Enterprise). */
    cloneUrl: text("clone_url").notNull(),
    prNumber: integer("pr_number").notNull(),
    title: text("title").notNull().default(""),
    body: text("body").notNull().default(""),
    authorLogin: text("author_login").notNull().default(""),
    /** The author's account type as GitHub says it (`User`, `Bot`); empty on rows written before it was kept. */
    authorType: text("author_type").notNull().default(""),
    baseRef: text("base_ref").notNull(),
    baseSha: text("base_sha").notNull(),
    headRef: text("head_ref").notNull(),
    headSha: text("head_sha").notNull(),
    /** The PR's `updated_at` from the newest event applied: an older, late delivery never moves the head back. */
    prUpdatedAt: timestamp("pr_updated_at", { withTimezone: true }),
    headRepoFullName: text("head_repo_full_name"),
    headCloneUrl: text("head_clone_url"),
    maintainerCanModify: boolean("maintainer_can_modify").notNull().default(false),
    draft: boolean("draft").notNull().default(false),
    /** The PR's label names, as the newest pull_request event applied says. */
    labels: jsonb("labels").$type<string[]>().notNull().default([]),
    lastReviewedSha: text("last_reviewed_sha"),
    summaryCommentId: bigint("summary_comment_id", { mode: "number" }),
    /** open | closed | paused */
    state: text("state").notNull().default("open"),
    /**
     * When GitHub says the PR was merged, and by whom (from the closing event); null for a PR not merged,
     * and for runs closed before this was kept: neither counts as merged.
     */
    mergedAt: timestamp("merged_at", { withTimezone: true }),
    mergedBy: text("merged_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("runs_repository_pr_unique").on(t.repositoryId, t.prNumber),
    // The run view's repository page: a repository's PRs, newest activity first.
    index("runs_repository_updated_idx").on(t.repositoryId, t.updatedAt),
    // The run view's addresses name a repository (owner/name, any case): its newest run is found by them.
    index("runs_repository_name_idx").on(sql`lower(${t.repositoryFullName})`, t.updatedAt),
  ],
);

/** One agent invocation inside a run. */
export const turns = pgTable(
  "turns",
  {
    id: serial("id").primaryKey(),
    runId: integer("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    /** reviewer | fixer */
    role: text("role").notNull(),
    /** opened | push | command | auto-fix | rerequested | ... */
    trigger: text("trigger").notNull(),
    headSha: text("head_sha").notNull(),
    agent: text("agent").notNull(),
    /** The model id the agent's CLI sends (Agent.resolveModel's `sent`), learnt at the turn's start; null when it has none or could not say. */
    model: text("model"),
    /** cold | started | resumed | fallback | rollover; null while the turn is still starting */
    sessionMode: text("session_mode"),
    sessionId: text("session_id"),
    fallbackReason: text("fallback_reason"),
    /** running | succeeded | failed | cancelled | interrupted (its process died or stopped mid-turn) */
    status: text("status").notNull().default("running"),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * The run's `pr_updated_at` when the turn started (GitHub's time of the newest PR event applied): for a
     * review of a push, when it was pushed — the scorecard's time from push to review starts there.
     */
    prUpdatedAt: timestamp("pr_updated_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    tokensIn: integer("tokens_in").notNull().default(0),
    tokensOut: integer("tokens_out").notNull().default(0),
    /** Of tokens_in: read from the provider's prompt cache, and written to it (as the CLI or the proxy measured). */
    cacheReadTokens: integer("cache_read_tokens").notNull().default(0),
    cacheWriteTokens: integer("cache_write_tokens").notNull().default(0),
    /** The largest single model request of the turn, in input tokens: the session's size after it. */
    contextTokens: integer("context_tokens").notNull().default(0),
    costUsd: numeric("cost_usd", { precision: 12, scale: 6, mode: "number" }).notNull().default(0),
    error: text("error"),
    /** The agent's raw final message when it could not be used (kept for debugging). */
    rawAnswer: text("raw_answer"),
  },
  (t) => [
    index("turns_run_idx").on(t.runId, t.id),
    // Spend over a period (the run view's week and month), across runs.
    index("turns_started_idx").on(t.startedAt),
  ],
);

/** The agent's own resumable context, one per (run, role). */
export const runAgentSessions = pgTable(
  "run_agent_sessions",
  {
    runId: integer("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    role: text("role").notNull(),
    agent: text("agent").notNull(),
    sessionId: text("session_id").notNull(),
    /** gzip of the adapter's exported session state, when it has one and it fits the cap */
    state: bytea("state"),
    /** The session's size: input tokens of its largest request so far (a rollover starts past the budget). */
    contextTokens: integer("context_tokens").notNull().default(0),
    /** What the session's first request carried besides its prompt (the CLI's system prompt and tools), in tokens. */
    overheadTokens: integer("overhead_tokens").notNull().default(0),
    /** What the session has been told, as its role's caller records it (the reviewer: the ledger it saw). */
    memory: jsonb("memory"),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.role] })],
);

/** One problem the reviewer reported; the run's ledger. */
export const findings = pgTable(
  "findings",
  {
    id: serial("id").primaryKey(),
    runId: integer("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    /** stable within the run: NM-<number> */
    number: integer("number").notNull(),
    fingerprint: text("fingerprint").notNull(),
    path: text("path"),
    line: integer("line"),
    endLine: integer("end_line"),
    /** error | warning | info */
    severity: text("severity").notNull(),
    /** auto-fix | ask-user | no-op */
    action: text("action").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    suggestion: text("suggestion"),
    /** open | fix-pushed | fixed | dismissed | withdrawn | deferred | outdated | note (kept by a later review on code that did not change: never posted, never counted) */
    status: text("status").notNull().default("open"),
    dismissReason: text("dismiss_reason"),
    /** The review that carried it (inline or in the body); null until posted. */
    reviewId: bigint("review_id", { mode: "number" }),
    commentId: bigint("comment_id", { mode: "number" }),
    commentNodeId: text("comment_node_id"),
    threadId: text("thread_id"),
    introducedTurnId: integer("introduced_turn_id").references(() => turns.id, { onDelete: "set null" }),
    resolvedTurnId: integer("resolved_turn_id").references(() => turns.id, { onDelete: "set null" }),
    /**
     * The head at which a reviewer said this open finding was resolved although its code had not
     * changed: the claim is recorded, unverified, and the finding stays open (and keeps counting).
     */
    claimedResolvedSha: text("claimed_resolved_sha"),
    /**
     * Changes count as evidence for this finding only after this commit: set to the fixer's commit
     * when it claimed the finding (its own change proves nothing until the verifier confirms it).
     */
    evidenceFromSha: text("evidence_from_sha"),
    /** The verifier's ruling on the fixer's claim: confirmed | refuted; null when none was made. */
    verification: text("verification"),
    /**
     * The reviewer's latest ruling after someone argued in the finding's thread: upheld | withdrawn |
     * deferred; null when nobody argued. A ruling in effect moves a finding to status `withdrawn` or `deferred`.
     */
    ruling: text("ruling"),
    rulingReason: text("ruling_reason"),
    /** Who argued (their login). */
    rulingBy: text("ruling_by"),
    /**
     * Whether the ruling counts: `writer` (argued by someone with write access), `not-needed` (the
     * finding is below review.fail_on), `awaiting` (the PR author's argument on a blocking finding:
     * it keeps counting until a writer confirms), `confirmed`.
     */
    rulingConfirmation: text("ruling_confirmation"),
    rulingConfirmedBy: text("ruling_confirmed_by"),
    /** The bot's reply carrying the ruling (a writer's 👍 on it confirms). */
    rulingReplyId: bigint("ruling_reply_id", { mode: "number" }),
    /** The reviewer's reproducer: files to add and a command that fails on the head because of the defect. */
    reproducer: jsonb("reproducer").$type<Reproducer>(),
    /** What the app saw when it ran the reproducer: reproduced | not-reproduced | broken; null when none ran. */
    reproduction: text("reproduction"),
    /** The severity the reviewer gave, when the app lowered it (an error nothing reproduced: `verify.blocking`). */
    demotedFrom: text("demoted_from"),
    /**
     * Another agent's view of a blocking finding before it was posted (`review.second_opinion`): confirmed |
     * refuted; null when none was asked or it said nothing of this finding. A refuted one is kept as a note.
     */
    secondOpinion: text("second_opinion"),
    /** The agent that gave it, and its reason (its text: shown inert). */
    secondOpinionBy: text("second_opinion_by"),
    secondOpinionReason: text("second_opinion_reason"),
    /**
     * What finally became of it (src/db/finding-outcomes.ts): fixed | dismissed | withdrawn | open-at-merge |
     * abandoned (its PR closed unmerged); null while its PR is open and it is not fixed, dismissed or withdrawn,
     * and for notes (never posted). Recomputed with every change of its status or its run's state.
     */
    outcome: text("outcome"),
    /** When the event that decided the outcome happened (the time it took: outcome_at − created_at). */
    outcomeAt: timestamp("outcome_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("findings_run_number_unique").on(t.runId, t.number),
    uniqueIndex("findings_run_fingerprint_unique").on(t.runId, t.fingerprint),
    // The operator's scorecard: every repository's findings raised over a period.
    index("findings_created_idx").on(t.createdAt),
  ],
);

/**
 * A reproducer, as the reviewer gave it: files to add (a test) and a shell command run in the repository's
 * root that fails on the head because of the defect; `expect`, when given, is text its failing output holds.
 */
export interface Reproducer {
  files: { path: string; content: string }[];
  command: string;
  expect?: string;
}

/**
 * Every time the app ran the repository's own code: a setup, a check or a reproducer, at which head, for
 * which turn and finding, with what outcome. The output shown is its bounded tail (the PR author's text).
 */
export const executions = pgTable(
  "executions",
  {
    id: serial("id").primaryKey(),
    runId: integer("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    turnId: integer("turn_id").references(() => turns.id, { onDelete: "set null" }),
    findingId: integer("finding_id").references(() => findings.id, { onDelete: "set null" }),
    headSha: text("head_sha").notNull(),
    /** setup | check | reproducer */
    kind: text("kind").notNull(),
    /** review (a reviewer's reproducer), before / after (a fix's checks and reproducers on either side of it) */
    phase: text("phase").notNull(),
    /** The check's name, or the reproducer's command. */
    name: text("name").notNull(),
    command: text("command").notNull(),
    /** passed | failed | timed-out | limit | error (setup, check); reproduced | not-reproduced | broken (reproducer) */
    outcome: text("outcome").notNull(),
    exitCode: integer("exit_code"),
    durationMs: integer("duration_ms").notNull().default(0),
    outputDigest: text("output_digest").notNull(),
    outputTail: text("output_tail").notNull().default(""),
    /** A setup reused from the cache rather than run. */
    cached: boolean("cached").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index("executions_run_idx").on(t.runId, t.id),
    index("executions_finding_idx").on(t.findingId),
    index("executions_created_idx").on(t.createdAt),
  ],
);

/** Agent work asked for in the PR (fix, review, ask, a reply in a finding's thread), drained in order by the run's next job. */
export const runCommands = pgTable(
  "run_commands",
  {
    id: serial("id").primaryKey(),
    runId: integer("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    commentId: bigint("comment_id", { mode: "number" }).notNull(),
    /** Where the comment is: issue_comment (the PR's conversation) or review_comment (a review thread); their ids are separate sequences. */
    source: text("source").notNull().default("issue_comment"),
    author: text("author").notNull(),
    /** The parsed command (see src/domain/parse-command.ts). */
    command: jsonb("command").notNull(),
    /** pending | done | failed */
    status: text("status").notNull().default("pending"),
    /** The agent's parsed answer, kept once it is known: a retried job posts it instead of asking again. */
    answer: jsonb("answer"),
    createdAt: createdAt(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    index("run_commands_pending_idx").on(t.runId, t.status, t.id),
    uniqueIndex("run_commands_comment_unique").on(t.source, t.commentId),
  ],
);

/**
 * A finding's history, one row per thing that happened to it: raised, noted, restated, posted, fix-pushed,
 * fixed, refuted, dismissed, withdrawn, deferred, upheld, confirmed, reopened, outdated. Written with the
 * change it records (src/db/findings.ts), never edited.
 */
export const findingEvents = pgTable(
  "finding_events",
  {
    id: serial("id").primaryKey(),
    runId: integer("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    findingNumber: integer("finding_number").notNull(),
    kind: text("kind").notNull(),
    /** A GitHub login, or the role that did it (reviewer, fixer, verifier); null when unknown. */
    actor: text("actor"),
    turnId: integer("turn_id").references(() => turns.id, { onDelete: "set null" }),
    /** The reason given (a dismissal's, a ruling's), as plain untrusted text. */
    detail: text("detail"),
    /**
     * Where on the PR's GitHub page it happened, relative to the PR's address (`#discussion_r12`,
     * `#issuecomment-34`, `#pullrequestreview-56`, `/commits/<sha>`: src/domain/pull-request-anchor.ts).
     */
    url: text("url"),
    createdAt: createdAt(),
  },
  (t) => [index("finding_events_run_idx").on(t.runId, t.findingNumber, t.id)],
);

/**
 * Something the app refused, for the operator page: a command from someone without write access, a fix
 * not pushed (a gitlink, a link out of the tree, workflow files, nowhere to push, GitHub refused the push),
 * a turn past the PR's budget, a review GitHub refused, a webhook that failed validation or that the
 * intake could not take. Written only by src/refusals (which counts `refusals_total` with it).
 */
export const refusals = pgTable(
  "refusals",
  {
    id: serial("id").primaryKey(),
    /** The refusals_total kind: unauthorized_command | gitlink | budget | webhook_invalid | ... (RefusalKind) */
    kind: text("kind").notNull(),
    repositoryFullName: text("repository_full_name"),
    prNumber: integer("pr_number"),
    actor: text("actor"),
    /** What an operator can act on; redacted of secrets before it is written. */
    reason: text("reason").notNull(),
    /** How many refusals the row stands for: webhook refusals are kept at most one row per kind a minute. */
    count: integer("count").notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [index("refusals_created_idx").on(t.createdAt)],
);

/**
 * Each repository's scorecard revision: raised by the commit of every transaction that changes one of its runs,
 * findings or turns (deferred triggers, drizzle/0017_scorecard_revisions.sql), once per transaction. A scorecard
 * read at a revision stays right until the revision moves (src/web/queries/scorecard-cache.ts). A repository
 * nothing was written for since the triggers were added has no row: revision 0.
 */
export const scorecardRevisions = pgTable("scorecard_revisions", {
  repositoryId: bigint("repository_id", { mode: "number" }).primaryKey(),
  revision: bigint("revision", { mode: "number" }).notNull().default(0),
  /** The transaction that raised it last (txid_current()): a transaction raises it once, whatever it wrote. */
  raisedBy: bigint("raised_by", { mode: "number" }),
});

/**
 * A person signed in to the run view. The row's id is the SHA-256 of the cookie's random value (the cookie
 * alone cannot be forged from the table); their GitHub user-to-server token is kept encrypted (AES-256-GCM,
 * a key derived from the App's OAuth client secret), never rendered or logged.
 */
export const webSessions = pgTable(
  "web_sessions",
  {
    id: text("id").primaryKey(),
    userId: bigint("user_id", { mode: "number" }).notNull(),
    login: text("login").notNull(),
    tokenCiphertext: text("token_ciphertext").notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("web_sessions_expires_idx").on(t.expiresAt)],
);

/**
 * Webhook deliveries already accepted: a redelivered id is a no-op, and so is a body already applied under
 * another id within REPLAY_WINDOW_SECONDS (a replay: kept with `replay_of`, nothing else applied).
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    deliveryId: text("delivery_id").primaryKey(),
    event: text("event").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true })
      .notNull()
      .default(sql`now()`),
    /**
     * What the body was: GitHub's signature of it (HMAC-SHA256 under the webhook secret, hex), the same for
     * byte-identical bodies. Null for deliveries that came without one (journals of earlier versions).
     */
    bodyDigest: text("body_digest"),
    /** A replay: the delivery id its body was first applied under; null for a delivery that was applied. */
    replayOf: text("replay_of"),
  },
  (t) => [
    index("webhook_deliveries_body_digest_idx")
      .on(t.bodyDigest)
      .where(sql`body_digest IS NOT NULL`),
  ],
);

/**
 * Processes that run jobs, and how recently each said it is alive: a worker whose heartbeat stopped
 * (or, on the same host, whose pid is gone) has its jobs handed back to the queue at once.
 */
export const workers = pgTable("workers", {
  id: text("id").primaryKey(),
  host: text("host").notNull(),
  pid: integer("pid").notNull(),
  /** The kernel's start time of the pid ("" when unknown): a reused pid is not the same worker. */
  pidStarted: text("pid_started").notNull(),
  role: text("role").notNull(),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
  beatAt: timestamp("beat_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The queue jobs a worker is running right now (a row per job, removed when the handler ends). */
export const workerJobs = pgTable(
  "worker_jobs",
  {
    jobId: text("job_id").primaryKey(),
    queue: text("queue").notNull(),
    workerId: text("worker_id").notNull(),
    runId: integer("run_id"),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("worker_jobs_worker_idx").on(t.workerId)],
);

export type Run = typeof runs.$inferSelect;
export type Turn = typeof turns.$inferSelect;
export type RunAgentSession = typeof runAgentSessions.$inferSelect;
export type Finding = typeof findings.$inferSelect;
export type RunCommand = typeof runCommands.$inferSelect;
export type FindingEvent = typeof findingEvents.$inferSelect;
export type Refusal = typeof refusals.$inferSelect;
export type WebSession = typeof webSessions.$inferSelect;
export type Execution = typeof executions.$inferSelect;
