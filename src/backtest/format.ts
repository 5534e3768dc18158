/** Numbers as the report prints them. */
export const format = {
  ratio: (v: number | null) => (v === null ? "—" : v.toFixed(3)),
  signed: (v: number | null, digits = 3) => (v === null ? "—" : `${v >= 0 ? "+" : ""}${v.toFixed(digits)}`),
  usd: (v: number | null) => (v === null ? "—" : `$${v.toFixed(v !== 0 && Math.abs(v) < 0.1 ? 4 : 2)}`),
  seconds: (ms: number | null) => (ms === null ? "—" : `${(ms / 1000).toFixed(1)}s`),
  duration: (ms: number) => {
    const s = Math.round(ms / 1000);
    return s < 60
      ? `${s}s`
      : s < 3600
        ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`
        : `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
  },
};
