/** The app could not complete a PR's review (its check run failed): the PR is not counted as done, and a rerun tries it again. */
export class ReviewFailedError extends Error {
  override readonly name = "ReviewFailedError";
}
