/**
 * The fake reviewer's answer for every turn of the bench's PRs (bench/lib/repo.ts): two findings on lines
 * every commit of a PR changes, so each review posts inline comments.
 */
export const REVIEWER_ANSWER = {
  summary: "Two things to look at.",
  findings: [
    {
      path: "src/m0/file0.ts",
      line: 5,
      severity: "warning",
      action: "ask-user",
      title: "Changed constant lost its number",
      body: "v0_5 was a number; it is a string now.",
    },
    {
      path: "src/m0/file0.ts",
      line: 20,
      severity: "info",
      action: "no-op",
      title: "Revised comment",
      body: "The comment says revised; say what changed.",
    },
  ],
  resolved: [],
};
