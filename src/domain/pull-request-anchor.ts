/**
 * Where on a pull request's GitHub page something happened, written relative to the PR's own address:
 * an inline comment or a reply in its thread (`#discussion_r<id>`), a comment in the conversation
 * (`#issuecomment-<id>`), a review (`#pullrequestreview-<id>`), a commit (`/commits/<sha>`). Kept with a
 * finding's events; the run view joins it to the PR's address on the configured GitHub, so the same row
 * links right on github.com and on an Enterprise server.
 */
export const pullRequestAnchor = {
  reviewComment: (id: number): string => `#discussion_r${id}`,
  issueComment: (id: number): string => `#issuecomment-${id}`,
  review: (id: number): string => `#pullrequestreview-${id}`,
  commit: (sha: string): string => `/commits/${sha}`,
  /** Whether `text` is one of the shapes above (and so safe to append to a PR's address). */
  isValid: (text: string): boolean =>
    /^(#discussion_r\d{1,20}|#issuecomment-\d{1,20}|#pullrequestreview-\d{1,20}|\/commits\/[0-9a-f]{40,64})$/.test(
      text,
    ),
};
