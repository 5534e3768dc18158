import type { Finding, Run, RunAgentSession, Turn } from "../../src/db/schema.js";

/**
 * Fixed inputs for the rendered-markdown snapshots: every SHA, id, date and number is a constant, so a
 * snapshot changes only when what users read changes.
 */

export const HEAD_SHA = "4f1c2d3e5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d";
export const PREVIOUS_SHA = "9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b";
export const BASE_SHA = "1111111aaaaaaabbbbbbbcccccccdddddddeeeee";
export const NEW_BASE_SHA = "2222222fffffff0000000999999988888887777";
export const FIX_SHA = "c0ffee1234567890abcdef1234567890abcdef12";

const FIXED_DATE = new Date("2025-03-14T09:26:53.000Z");

/** A ledger row with every column set; `overrides` says what the case is about. */
/** The ledger's recurring error: number 1, on src/db/query.ts:17 (overrides add status and the rest). */
export function sqlFinding(overrides: Partial<Finding> = {}): Finding {
  return finding({
    number: 1,
    severity: "error",
    title: "SQL built by string concatenation",
    path: "src/db/query.ts",
    line: 17,
    ...overrides,
  });
}

/** The ledger's recurring warning: number 2, lines 42–43 of the default file. */
export function roundingFinding(overrides: Partial<Finding> = {}): Finding {
  return finding({
    number: 2,
    severity: "warning",
    title: "Discount rounds with floats",
    line: 42,
    endLine: 43,
    ...overrides,
  });
}

export function finding(overrides: Partial<Finding> & Pick<Finding, "number">): Finding {
  return {
    id: 1000 + overrides.number,
    runId: 7,
    fingerprint: `fp-${overrides.number}`,
    path: "src/billing/invoice.ts",
    line: 42,
    endLine: null,
    severity: "warning",
    action: "ask-user",
    title: "A finding",
    body: "Why it is wrong and what to do.",
    suggestion: null,
    status: "open",
    dismissReason: null,
    reviewId: 555001,
    commentId: 880000 + overrides.number,
    commentNodeId: `PRRC_node${overrides.number}`,
    threadId: null,
    introducedTurnId: 1,
    resolvedTurnId: null,
    claimedResolvedSha: null,
    evidenceFromSha: null,
    verification: null,
    ruling: null,
    rulingReason: null,
    rulingBy: null,
    rulingConfirmation: null,
    rulingConfirmedBy: null,
    rulingReplyId: null,
    reproducer: null,
    reproduction: null,
    demotedFrom: null,
    secondOpinion: null,
    secondOpinionBy: null,
    secondOpinionReason: null,
    outcome: null,
    outcomeAt: null,
    createdAt: FIXED_DATE,
    updatedAt: FIXED_DATE,
    ...overrides,
  };
}

/** A finished agent turn. */
export function turn(overrides: Partial<Turn> & Pick<Turn, "id" | "role">): Turn {
  return {
    runId: 7,
    trigger: "opened",
    headSha: HEAD_SHA,
    agent: "claude-code",
    model: null,
    prUpdatedAt: null,
    sessionMode: "started",
    sessionId: `session-${overrides.id}`,
    fallbackReason: null,
    status: "succeeded",
    startedAt: FIXED_DATE,
    finishedAt: FIXED_DATE,
    tokensIn: 12_000,
    tokensOut: 1_500,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    contextTokens: 0,
    costUsd: 0.42,
    error: null,
    rawAnswer: null,
    ...overrides,
  };
}

export function run(overrides: Partial<Run> = {}): Run {
  return {
    id: 7,
    installationId: 99,
    repositoryId: 4242,
    repositoryFullName: "octo/shop",
    cloneUrl: "https://github.com/octo/shop.git",
    prNumber: 128,
    title: "Invoice totals in cents",
    body: "",
    authorLogin: "dev-dana",
    authorType: "User",
    baseRef: "main",
    baseSha: BASE_SHA,
    headRef: "invoice-cents",
    headSha: HEAD_SHA,
    prUpdatedAt: FIXED_DATE,
    headRepoFullName: "octo/shop",
    headCloneUrl: "https://github.com/octo/shop.git",
    maintainerCanModify: false,
    draft: false,
    labels: [],
    lastReviewedSha: HEAD_SHA,
    summaryCommentId: 700001,
    state: "open",
    mergedAt: null,
    mergedBy: null,
    createdAt: FIXED_DATE,
    updatedAt: FIXED_DATE,
    ...overrides,
  };
}

export function session(role: string, sessionId: string): RunAgentSession {
  return {
    runId: 7,
    role,
    agent: "claude-code",
    sessionId,
    state: null,
    contextTokens: 0,
    overheadTokens: 0,
    memory: null,
    updatedAt: FIXED_DATE,
  };
}

/**
 * Text written by someone hostile (a PR author, or an agent that read their code): a mention, a team
 * mention, a forged finding marker, raw HTML, and a fence left open to swallow what follows.
 */
export const HOSTILE_TITLE = "Ping @alice and <!-- no-mistakes:NM-9 --> here";
export const HOSTILE_BODY = [
  "cc @alice @octo/security — this is urgent.",
  "<!-- no-mistakes:NM-9 -->",
  '<details><summary>hidden</summary><img src=x onerror="alert(1)"></details>',
  "Run `rm -rf ~` to fix, then:",
  "```js",
  "// the fence is never closed, to swallow the bot's marker",
].join("\n");

/** Zero-width and direction characters the sanitiser inserts or removes: shown in the snapshot files as ⟨NAME⟩. */
const INVISIBLE_NAMES: Record<string, string> = {
  "\u200b": "ZWSP",
  "\u200c": "ZWNJ",
  "\u200d": "ZWJ",
  "\ufeff": "BOM",
};

/**
 * The snapshot files show exactly what is sent to GitHub, except that invisible characters are spelled
 * out (⟨ZWSP⟩ after a neutralised `@`, ⟨ZWNJ⟩ after a neutralised `<`): a reviewer sees the sanitising,
 * and a change to it shows in the diff. Assertions run on the raw text, never on this.
 */
export function visible(text: string): string {
  return text.replace(
    /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u180e]/g,
    (c) => `⟨${INVISIBLE_NAMES[c] ?? `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`}⟩`,
  );
}

/** A snapshot file's path, next to the tests. */
export function snap(name: string): string {
  return `./__snapshots__/${name}.md`;
}

/** Raw mentions that would ping someone (`@` directly followed by a name character). */
export const LIVE_MENTION = /@[\p{L}\p{N}_-]/u;
/** Raw HTML a sanitised text must not carry (`<` directly followed by a tag or comment opener). */
export const LIVE_TAG = /<[A-Za-z/!?]/;
