/** pg-boss queue of run jobs: agent turns, one job per run at a time. */
export const RUN_QUEUE = "no-mistakes-run";

/** pg-boss queue of command replies (fast; agent work is handed to the run queue). */
export const COMMAND_QUEUE = "no-mistakes-command";
