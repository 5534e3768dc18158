/**
 * The pipeline's face: everything the wiring, the backtest and the benchmarks may use of the work a
 * worker does. A run's job (`processRun`: its commands, the review, auto-fix), the command job
 * (`answerCommand`), what both are handed (`PipelineDeps`, `RunSessions`), and the review's parts the
 * backtest replays and the benchmarks time. Nothing outside src/pipeline imports a room directly.
 */
export { processRun } from "./process-run.js";
export { answerCommand } from "./command/answer-command.js";
export type { CommandDeps } from "./command/command-deps.js";
export type { PipelineDeps } from "./job/pipeline-deps.js";
export { loadRunContext, runContext, type RunContext } from "./job/run-context.js";
export { RunSessions, type RunSessionsOptions, type RepoAgentChoice } from "./sessions/run-sessions.js";
export { runReview } from "./review/run-review.js";
export { buildReviewPrompt, type ReviewPromptInput } from "./review/build-review-prompt.js";
export { limitDiff } from "./workspace/limit-diff.js";
export { prepareHead } from "./checks/prepare-head.js";
export type { PreparedHead } from "./checks/prepared-head.js";
export { runReproducer } from "./checks/run-reproducer.js";
