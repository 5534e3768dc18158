/** What a session is given, as its memory keeps it: each guideline's key → the digest of its text. */
export function digestsOf(given: readonly { key: string; digest: string }[]): Record<string, string> {
  return Object.fromEntries(given.map((g) => [g.key, g.digest]));
}
