import { listRunExecutions } from "../../db/executions.js";
import { listFindings, updateFinding } from "../../db/findings.js";
import type { Finding, Reproducer } from "../../db/schema.js";
import { prepareHead } from "../checks/prepare-head.js";
import type { PreparedHead } from "../checks/prepared-head.js";
import { runReproducer, type ReproducerRun } from "../checks/run-reproducer.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import type { ShownReproduction } from "../render/render-reproduction.js";
import type { ReviewerVerdict } from "./ask-reviewer.js";
import { applyBlockingPolicy } from "./apply-blocking-policy.js";
import type { RecordedFindings } from "./record-findings.js";
import { reproducersAsked } from "./reproducers-asked.js";
import type { ReviewHead, ReviewInput, ReviewTurn } from "./review-turn.js";

/** The ledger after the reproducers ran, and what each posted finding's comment shows of its run. */
export interface ReproducedFindings {
  recorded: RecordedFindings;
  shown: Map<number, ShownReproduction>;
  /** For the review body: the findings this step kept as notes instead of posting them, counted by why. */
  heldBack?: string;
}

/**
 * Between recording and posting: when the repository runs reproducers, the PR's head is prepared once (scratch
 * checkout and setup) and each reproducer of a finding about to be posted runs in a fresh sandbox; its outcome
 * is kept on the finding. Not reproduced (it passed): kept as a note, not posted. Then `verify.blocking` on the
 * errors nothing reproduced. A finding with an outcome already (an earlier attempt of this job) is not run
 * again. When nothing can run (no sandbox, the setup failed) the review goes on as the reviewer gave it, and a
 * note says why.
 */
export async function reproduceFindings(
  deps: PipelineDeps,
  turn: ReviewTurn,
  head: ReviewHead,
  input: ReviewInput,
  verdict: ReviewerVerdict,
  recorded: RecordedFindings,
): Promise<ReproducedFindings> {
  const asked = reproducersAsked(turn.ctx.config, deps.checks !== undefined);
  if (!asked) return { recorded, shown: new Map() };
  input.notes.push(...leftOutReproducers(verdict));
  const toPost = recorded.ledger.filter((f) => f.status === "open" && f.reviewId === null);
  const toRun = toPost.filter((f) => f.reproducer !== null && f.reproduction === null);
  const ran = await runAll(deps, turn, head, verdict, toRun);
  if (ran.notRun !== undefined) {
    input.notes.push(ran.notRun);
    return { recorded, shown: new Map() };
  }
  for (const [f, run] of ran.runs) await recordReproduction(deps, turn, verdict, f, run);
  // raised again by a later review: a reproducer that passed before still keeps it a note
  for (const f of toPost.filter((f) => f.reproduction === "not-reproduced"))
    await recordReproduction(deps, turn, verdict, f, { outcome: "not-reproduced" });
  const after = await listFindings(deps.db, turn.run.id);
  const posting = after.filter((f) => toPost.some((p) => p.number === f.number));
  await applyBlockingPolicy(deps, turn, verdict, posting, asked.blocking);
  const ledger = await listFindings(deps.db, turn.run.id);
  const shown = await shownReproductions(deps, turn, ledger, ran.runs);
  turn.log.info({ ran: ran.runs.length, blocking: asked.blocking }, "reproducers run");
  const held = ledger.filter((f) => f.status === "note" && toPost.some((p) => p.number === f.number));
  return { recorded: { ...recorded, ledger }, shown, heldBack: heldBackNote(held) };
}

/** "2 findings were kept as notes in the summary, not raised: 1 whose reproducer passed, 1 error nothing reproduced". */
function heldBackNote(held: Finding[]): string | undefined {
  if (held.length === 0) return undefined;
  const passed = held.filter((f) => f.reproduction === "not-reproduced").length;
  const why = [
    ...(passed ? [`${passed} whose reproducer passed on this head`] : []),
    ...(held.length - passed
      ? [
          `${held.length - passed} error${held.length - passed === 1 ? "" : "s"} nothing reproduced (\`verify.blocking: drop\`)`,
        ]
      : []),
  ];
  return `${held.length} finding${held.length === 1 ? " was" : "s were"} kept as ${held.length === 1 ? "a note" : "notes"} in the summary, not raised: ${why.join(", ")}.`;
}

/** The runs, or why none could happen: no sandbox, the setup failed, the head could not be prepared. */
async function runAll(
  deps: PipelineDeps,
  turn: ReviewTurn,
  head: ReviewHead,
  verdict: ReviewerVerdict,
  toRun: Finding[],
): Promise<{ runs: [Finding, ReproducerRun][]; notRun?: string }> {
  const unavailable = deps.checks!.runner.unavailable();
  if (unavailable !== undefined) return { runs: [], notRun: `Reproducers were not run: ${unavailable}.` };
  if (toRun.length === 0) return { runs: [] };
  const at = { turnId: verdict.turnId, phase: "review" as const };
  let prepared: Awaited<ReturnType<typeof prepareHead>>;
  try {
    prepared = await prepareHead(deps, turn.ctx, head.ws.headSha, at);
  } catch (error) {
    turn.log.warn({ err: error }, "the head could not be prepared for reproducers");
    return { runs: [], notRun: "Reproducers were not run: the head could not be prepared for them." };
  }
  if ("unavailable" in prepared) return { runs: [], notRun: `Reproducers were not run: ${prepared.unavailable}.` };
  try {
    if (prepared.setup.status === "failed") return { runs: [], notRun: setupFailed(prepared.setup.detail) };
    return { runs: await runEach(deps, turn, prepared, toRun, at) };
  } finally {
    await prepared.dispose();
  }
}

/** The one line a failed setup gets: the review goes on without reproduction. */
function setupFailed(detail: string): string {
  return `The repository's setup (\`checks.setup\`) failed: ${detail}. No reproducer was run; findings are posted as the reviewer gave them.`;
}

/** Each reproducer on the prepared head, each in a sandbox of its own (the runner bounds how many at once). */
async function runEach(
  deps: PipelineDeps,
  turn: ReviewTurn,
  prepared: PreparedHead,
  toRun: Finding[],
  at: { turnId: number | undefined; phase: "review" },
): Promise<[Finding, ReproducerRun][]> {
  return Promise.all(
    toRun.map(async (f): Promise<[Finding, ReproducerRun]> => {
      const run = await runReproducer(deps, turn.ctx, prepared, f.reproducer as Reproducer, { ...at, findingId: f.id });
      return [f, run];
    }),
  );
}

/** The outcome on the finding; one that did not reproduce is kept as a note, not posted. */
async function recordReproduction(
  deps: PipelineDeps,
  turn: ReviewTurn,
  verdict: ReviewerVerdict,
  f: Finding,
  run: Pick<ReproducerRun, "outcome">,
): Promise<void> {
  const by = { actor: "app", turnId: verdict.turnId ?? null };
  if (run.outcome === "not-reproduced")
    await updateFinding(
      deps.db,
      turn.run.id,
      f.number,
      { reproduction: run.outcome, status: "note" },
      { kind: "noted", ...by, detail: `its reproducer passed on ${turn.run.headSha.slice(0, 7)}: not reproduced` },
    );
  else await updateFinding(deps.db, turn.run.id, f.number, { reproduction: run.outcome });
}

/** What each posted finding's comment shows: this attempt's runs, else (a retried job) the recorded ones. */
async function shownReproductions(
  deps: PipelineDeps,
  turn: ReviewTurn,
  ledger: Finding[],
  runs: [Finding, ReproducerRun][],
): Promise<Map<number, ShownReproduction>> {
  const shown = new Map<number, ShownReproduction>();
  for (const [f, run] of runs)
    shown.set(f.number, { command: f.reproducer!.command, why: run.why, output: run.output });
  const missing = ledger.filter((f) => f.reproduction !== null && f.reviewId === null && !shown.has(f.number));
  if (missing.length === 0) return shown;
  const executions = await listRunExecutions(deps.db, turn.run.id);
  for (const f of missing) {
    const e = executions.findLast((x) => x.kind === "reproducer" && x.phase === "review" && x.findingId === f.id);
    if (!e) continue;
    const why = e.outcome === "reproduced" ? `it exited ${e.exitCode}` : undefined;
    shown.set(f.number, { command: e.command, ...(why ? { why } : {}), output: e.outputTail });
  }
  return shown;
}

/** A note for each reproducer the answer gave that could not be read: the finding was kept without it. */
function leftOutReproducers(verdict: ReviewerVerdict): string[] {
  return verdict.answer.findings.flatMap((f) =>
    f.reproducer_problem === undefined
      ? []
      : [
          `The reproducer given with ${f.id ? `${f.id} ` : ""}“${f.title.slice(0, 80)}” was left out (${f.reproducer_problem}); the finding is kept without it.`,
        ],
  );
}
