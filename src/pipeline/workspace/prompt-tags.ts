/** The block's tag the maintainers' guidelines are given in; no other text may open or close it. */
export const GUIDELINES_TAG = "maintainer-guidelines";

/** The tags that mark the review prompt's blocks (`untrusted-` covers every untrusted-… block). */
export const REVIEW_PROMPT_TAGS = [
  "untrusted-",
  "open-findings",
  "kept-notes",
  "repo-instructions",
  "ledger-changes",
  "closed-findings",
  GUIDELINES_TAG,
];

/** The tags that mark the fix prompt's blocks. */
export const FIX_PROMPT_TAGS = ["findings", "note", "failure", GUIDELINES_TAG];
