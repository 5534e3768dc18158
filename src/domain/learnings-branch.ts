/** The branch of its own the bot proposes learnings from (`/no-mistakes learn`); never the default branch. */
export const LEARNINGS_BRANCH = "no-mistakes/learnings";
