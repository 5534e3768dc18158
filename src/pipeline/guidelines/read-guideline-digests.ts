/**
 * The guidelines a session was given (key → digest), as stored in its memory; undefined when the value is
 * not such a record (then everything is given again).
 */
export function readGuidelineDigests(value: unknown): Record<string, string> | undefined {
  if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
  const entries = Object.entries(value as Record<string, unknown>);
  if (!entries.every(([, digest]) => typeof digest === "string")) return undefined;
  return Object.fromEntries(entries) as Record<string, string>;
}
