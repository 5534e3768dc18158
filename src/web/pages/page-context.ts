/** What every page gets besides its view: who is signed in, whether they may see the operator page, and GitHub's web origin. */
export interface PageContext {
  user?: { login: string };
  operator: boolean;
  /** Where links to GitHub point, e.g. https://github.com (no trailing slash). */
  github: { webOrigin: string };
}
