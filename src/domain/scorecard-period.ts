/** Weeks a scorecard covers, the current one included. */
export const SCORECARD_WEEKS = 12;
const DAY_MS = 86_400_000;

/** Monday 00:00 UTC of the week `weeks - 1` weeks before the one `now` is in: where a scorecard starts. */
export function scorecardSince(now: Date, weeks = SCORECARD_WEEKS): Date {
  const day = Math.floor(now.getTime() / DAY_MS);
  const monday = day - ((day + 3) % 7); // 1970-01-01 was a Thursday
  return new Date((monday - 7 * (weeks - 1)) * DAY_MS);
}
