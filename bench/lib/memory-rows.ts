/** One row of the bench's table (see bench/run.ts). */
export interface MemoryRow {
  figure: string;
  value: string;
  target: string;
  holds: boolean | null;
  kind: "perf" | "correctness" | "info";
}

const IDLE_EMBEDDED_MAX_MIB = 300;
const IDLE_POSTGRES_MAX_RATIO = 4;
const LOADED_MAX_MIB = 600;
const LEAK_MAX_GROWTH = 0.1;

const parts = (byRole: Record<string, number>) =>
  Object.entries(byRole)
    .map(([role, mib]) => `${role} ${Math.round(mib)}`)
    .join(", ");
const mib = (n: number) => `${Math.round(n)} MiB`;

/** The memory section's rows: per database, idle, after the load rounds, after the large review, the leak check. */
export function memoryRows(memory: any): MemoryRow[] {
  const rows: MemoryRow[] = [];
  const c = memory.config;
  for (const d of memory.databases) {
    const db = d.database === "embedded" ? "embedded PGlite" : "PostgreSQL";
    const server = (s: any) =>
      s.postgresServer
        ? `; PostgreSQL's ${s.postgresServer.processes} backends for the app: ${mib(s.postgresServer.rssMiB)}, apart`
        : "";
    const ratio = Math.round((d.idle.appTreeMiB / d.idle.bareMiB) * 100) / 100;
    rows.push({
      figure: `memory, ${db}: the npm start tree's RSS at idle (${c.idleSeconds} s after listening) vs a bare Probot app's process`,
      value: `${mib(d.idle.appTreeMiB)} (${parts(d.idle.byRole)}) / ${mib(d.idle.bareMiB)} = ${ratio}×; without npm (node started directly: the image, systemd) ${mib(d.idle.withoutNpmMiB)}; PSS ${mib(d.idle.appTreePssMiB)}${server(d.idle)}`,
      target: d.database === "embedded" ? `≤ ${IDLE_EMBEDDED_MAX_MIB} MiB` : `≤ ${IDLE_POSTGRES_MAX_RATIO}× bare`,
      holds: d.database === "embedded" ? d.idle.appTreeMiB <= IDLE_EMBEDDED_MAX_MIB : ratio <= IDLE_POSTGRES_MAX_RATIO,
      kind: "perf",
    });
    const ends = d.rounds.map((r: any) => r.endOfLoad.appTreeMiB);
    const worst = d.rounds.reduce((a: any, r: any) => (r.endOfLoad.appTreeMiB > a.endOfLoad.appTreeMiB ? r : a));
    const peak = Math.max(...d.rounds.map((r: any) => r.peakMiB));
    rows.push({
      figure: `memory, ${db}: the tree's RSS at the end of each load of ${c.deliveries} deliveries (workers reviewing; ${c.rounds} rounds)`,
      value: `${ends.map(Math.round).join(" / ")} MiB (worst: ${parts(worst.endOfLoad.byRole)}; sampled peak ${mib(peak)}; bare ${mib(worst.endOfLoad.bareMiB)}; ${d.rounds.map((r: any) => r.reviews).join("/")} reviews)${server(worst.endOfLoad)}`,
      target: `≤ ${LOADED_MAX_MIB} MiB`,
      holds: Math.max(...ends) <= LOADED_MAX_MIB,
      kind: "perf",
    });
    const large = d.largeReview;
    const afterLarge = Math.max(large.rightAfter.appTreeMiB, large.after.appTreeMiB);
    rows.push({
      figure: `memory, ${db}: the tree's RSS after a ${c.largeFiles}-file review`,
      value: `${mib(large.rightAfter.appTreeMiB)} as it completed, ${mib(large.after.appTreeMiB)} settled (${parts(large.after.byRole)}; sampled peak ${mib(large.peakMiB)}; bare ${mib(large.after.bareMiB)})${server(large.after)}`,
      target: `≤ ${LOADED_MAX_MIB} MiB`,
      holds: afterLarge <= LOADED_MAX_MIB,
      kind: "perf",
    });
    rows.push({
      figure: `memory, ${db}: leak check, the tree's RSS once each round's work drained, last round vs the second`,
      value: `${d.rounds.map((r: any) => Math.round(r.drained.appTreeMiB)).join(" / ")} MiB: ${d.leak.lastRoundMiB} / ${d.leak.secondRoundMiB} = ${d.leak.growth >= 0 ? "+" : ""}${Math.round(d.leak.growth * 1000) / 10} %`,
      target: `≤ +${LEAK_MAX_GROWTH * 100} %`,
      holds: d.leak.growth <= LEAK_MAX_GROWTH,
      kind: "perf",
    });
    rows.push({
      figure: `memory, ${db}: every delivery answered 2xx, the large review posted, no unknown GitHub request, a clean stop`,
      value: `${d.failedDeliveries.app + d.failedDeliveries.bare} failed, ${large.posted ? `posted (${large.inlineComments} inline)` : "NOT posted"}, ${d.unmatchedGitHubRequests.length} unknown, ${d.stoppedCleanly ? "stopped cleanly" : "did NOT stop cleanly"}`,
      target: "0, posted, 0, clean",
      holds:
        d.failedDeliveries.app + d.failedDeliveries.bare === 0 &&
        large.posted &&
        d.unmatchedGitHubRequests.length === 0 &&
        d.stoppedCleanly,
      kind: "correctness",
    });
  }
  return rows;
}
