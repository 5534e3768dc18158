/** Who an agent turn is for: the reviewer, the fixer, or the verifier of a fixer's claims. */
export type Role = "reviewer" | "fixer" | "verifier";
