/** One line of `npm run doctor`: what was checked, whether it passed, and what to do when it did not. */
export interface DoctorCheck {
  name: string;
  ok: boolean;
  /** What was found (shown after the name). */
  detail?: string;
  /** What to change, when `ok` is false. */
  fix?: string;
}

export const pass = (name: string, detail?: string): DoctorCheck => ({ name, ok: true, detail });
export const fail = (name: string, detail: string, fix: string): DoctorCheck => ({ name, ok: false, detail, fix });

/** `✓ name: detail`, or `✗ name: detail — fix: …`. */
export function formatCheck(check: DoctorCheck): string {
  const head = `${check.ok ? "✓" : "✗"} ${check.name}${check.detail ? `: ${check.detail}` : ""}`;
  return check.ok || !check.fix ? head : `${head} — fix: ${check.fix}`;
}
