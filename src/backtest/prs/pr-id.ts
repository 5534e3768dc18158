/** A PR's stable id and run number: `#N` when its number is known, else its abbreviated commits and a number from the head. */
export function prId(baseSha: string, headSha: string, number?: number): { id: string; number: number } {
  if (number !== undefined) return { id: `#${number}`, number };
  // 7 hex digits stay below 2^31 (the runs table's integer); a real PR number this large is unlikely.
  return {
    id: `${baseSha.slice(0, 12)}..${headSha.slice(0, 12)}`,
    number: 1_000_000_000 + parseInt(headSha.slice(0, 7), 16),
  };
}
