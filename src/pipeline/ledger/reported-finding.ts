import type { Reproducer } from "../../db/schema.js";

/** A finding as a reviewer reports it, before the ledger knows it. */
export interface ReportedFinding {
  id?: string;
  path: string;
  line?: number;
  end_line?: number;
  severity: "error" | "warning" | "info";
  action: "auto-fix" | "ask-user" | "no-op";
  title: string;
  body: string;
  suggestion?: string;
  /** The changed line the reviewer says breaks this code; its path already repository-relative. */
  broken_by?: { path: string; line: number };
  /** A test that fails on the head because of the defect, for the app to run. */
  reproducer?: Reproducer;
}
