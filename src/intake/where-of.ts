import type { IntakeRecord } from "./intake-record.js";

/** The repository, PR and sender a delivery is about, as far as its record says (for a refusal of it). */
export function whereOf(record: IntakeRecord): {
  repositoryFullName: string | null;
  prNumber: number | null;
  actor: string | null;
} {
  switch (record.kind) {
    case "pull_request":
      return {
        repositoryFullName: record.run.repositoryFullName,
        prNumber: record.run.prNumber,
        actor: record.sender.login,
      };
    case "command":
      return {
        repositoryFullName: record.job.repositoryFullName,
        prNumber: record.job.prNumber,
        actor: record.job.author,
      };
    case "rerun":
      return { repositoryFullName: null, prNumber: record.prNumber, actor: record.sender.login };
    case "pull_request_closed":
      return { repositoryFullName: null, prNumber: record.prNumber, actor: null };
  }
}
