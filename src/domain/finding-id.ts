/** NM-<n>: a finding's stable id within its run. */
export function findingId(number: number): string {
  return `NM-${number}`;
}

/** The number in "NM-12" (any case, surrounding spaces ok); undefined for anything else. */
export function parseFindingId(id: string): number | undefined {
  const match = /^\s*NM-(\d{1,6})\s*$/i.exec(id);
  return match ? Number(match[1]) : undefined;
}
