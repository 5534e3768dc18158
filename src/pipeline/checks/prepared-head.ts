/** How a head's setup went: nothing to set up, reused from the cache, run now, or failed (then nothing is proven). */
export type SetupOutcome =
  { status: "none" } | { status: "cached" | "ran"; scope: string } | { status: "failed"; detail: string };

/** A head ready for the repository's commands: its scratch checkout and the folders stacked over it. */
export interface PreparedHead {
  sha: string;
  scratch: string;
  /** The setup's saved files, stacked over the checkout (empty without a setup). */
  layers: string[];
  setup: SetupOutcome;
  /** Removes the scratch checkout. */
  dispose(): Promise<void>;
}

/** Why nothing of the repository's can run for this head: no checks configured, no sandbox, setup failed. */
export interface NotPrepared {
  unavailable: string;
}

/** Where a run of the repository's commands is recorded: the turn it serves and which side of a fix it is. */
export interface PrepareFor {
  turnId?: number | undefined;
  phase: "review" | "before" | "after";
}
