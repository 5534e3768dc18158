/**
 * Why a git command failed, decided from its stderr and exit:
 * - auth: the remote refused the credentials (401/403, no username to send)
 * - not-found: the repository, remote ref or object does not exist
 * - rejected: the remote refused a push (non-fast-forward, protected branch, hook declined)
 * - network: the remote could not be reached or the connection broke
 * - timeout: git ran past its time limit and was killed
 * - over-limit: git wrote more than its output cap and was killed
 * - other: anything else
 */
export type GitErrorKind = "auth" | "not-found" | "rejected" | "network" | "timeout" | "over-limit" | "other";

export class GitError extends Error {
  constructor(
    readonly kind: GitErrorKind,
    message: string,
    readonly details: {
      /** The git subcommand that failed (`fetch`, `push`, …). */
      subcommand: string;
      /** Exit code; undefined when git was killed or could not start. */
      exitCode?: number | undefined;
      /** Stderr with secrets redacted. */
      stderr: string;
    },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "GitError";
  }

  get subcommand(): string {
    return this.details.subcommand;
  }

  get exitCode(): number | undefined {
    return this.details.exitCode;
  }

  get stderr(): string {
    return this.details.stderr;
  }
}
