import type { Logger } from "pino";
import { AgentError } from "../../agents/agent-error.js";
import { GitError } from "../../git/git-error.js";
import { GitHubError, isRequestError, toGitHubError } from "../../github/github-error.js";

/** GitHub refused the App itself: what went wrong and what the operator must do about it. */
export interface AuthFailure {
  problem: "credentials" | "permission";
  /** One sentence: the cause and the fix, for the log and the check run. */
  message: string;
}

export interface FailureDecision {
  /** Let the queue retry the job later (the failure may pass). */
  retry: boolean;
  /** Short, for the check run title. */
  title: string;
  /** What a user should know, already free of secrets. */
  detail: string;
  /** Set for 401/403 from GitHub: never retried, logged once at error (see reportAuthFailure). */
  auth?: AuthFailure;
  /** What the operator should check or do, when it is known (e.g. a 404 from GitHub). */
  fix?: string;
}

/** The GitHubError a failure is, when it is one (Octokit's own RequestError included, e.g. from the installation token request). */
export function asGitHubError(error: unknown): GitHubError | undefined {
  if (error instanceof GitHubError) return error;
  if (!isRequestError(error)) return undefined;
  const { method, url } = (error as { request: { method?: string; url?: string } }).request;
  return toGitHubError(
    error,
    url && /\/access_tokens$/.test(url) ? "installation token" : `${method ?? "request"} ${url ?? ""}`.trim(),
  );
}

/** The operator's side of a 401/403: the cause in words and what to do. */
export function describeAuthFailure(error: GitHubError): AuthFailure | undefined {
  if (error.kind !== "auth") return undefined;
  const request = error.message.split(":")[0];
  if (error.authProblem === "credentials") {
    return {
      problem: "credentials",
      message:
        `the App's private key was revoked or the installation suspended: GitHub answered ${answered(error)} to "${request}". ` +
        "Generate a new private key in the App's settings and set PRIVATE_KEY, or unsuspend (reinstall) the App on this account; jobs fail until then.",
    };
  }
  const permission = error.permission ? `permission ${error.permission}` : `the permission "${request}" needs`;
  return {
    problem: "permission",
    message: `the App lacks ${permission}: accept the new permissions in the installation settings (or grant it in the App's settings). GitHub answered ${answered(error)} to "${request}".`,
  };
}

/** What a 404 from GitHub asks the operator to check: the App's installation and its access to the repository. */
export function describeNotFound(error: GitHubError): string | undefined {
  if (error.kind !== "not-found") return undefined;
  const request = error.message.split(":")[0];
  const url = (error.cause as { request?: { url?: string } } | undefined)?.request?.url ?? "";
  if (/\/access_tokens$/.test(url) || /installation token/.test(error.message)) {
    return `GitHub answered ${answered(error)} to "${request}": the App's installation is gone (uninstalled, or the App deleted). Install the App on the account again; jobs of its repositories fail until then.`;
  }
  const repo = /\/repos\/([^/?#]+\/[^/?#]+)/.exec(url)?.[1];
  const where = repo ? `the repository ${decodeURIComponent(repo)}` : "the repository";
  return `GitHub answered ${answered(error)} to "${request}": check that the App is installed on ${where} and has access to it (the installation's Repository access: all repositories, or this one selected), and that the repository still exists.`;
}

/** What GitHub answered: the HTTP status, or for a GraphQL answer (200) the type of its error. */
function answered(error: GitHubError): string {
  return String(error.status ?? error.graphqlType ?? error.kind);
}

/** The one error line an auth failure gets (once per job). */
export function reportAuthFailure(log: Logger, error: GitHubError, auth: AuthFailure): void {
  log.error(
    {
      err: error,
      status: error.status,
      problem: auth.problem,
      ...(error.permission ? { permission: error.permission } : {}),
    },
    `GitHub refused the App: ${auth.message}`,
  );
}

/** The one place that decides what a failed job means for the run. */
export function classifyFailure(error: unknown): FailureDecision {
  if (error instanceof AgentError) {
    switch (error.kind) {
      case "cancelled":
        return { retry: true, title: "Review interrupted", detail: "The review was interrupted and will be retried." };
      case "timeout":
        return { retry: false, title: "The agent ran out of time", detail: error.message };
      case "transient":
        return { retry: true, title: "The agent's model service is unavailable", detail: error.message };
      case "spawn":
        return { retry: false, title: "The agent could not be started", detail: error.message };
      case "limit":
        return { retry: false, title: "The agent turn was stopped at a resource limit", detail: error.message };
      default:
        return { retry: false, title: "The agent failed", detail: error.message };
    }
  }
  const github = asGitHubError(error);
  if (github) {
    const auth = describeAuthFailure(github);
    if (auth) {
      const title =
        auth.problem === "credentials" ? "GitHub refused the App's credentials" : "The App lacks a GitHub permission";
      return { retry: false, title, detail: `${auth.message}\n\n${github.message}`, auth };
    }
    const fix = describeNotFound(github);
    return {
      retry: github.transient,
      title:
        github.kind === "unreachable"
          ? "GitHub could not be reached"
          : `GitHub refused a request (${github.status ?? github.kind})`,
      detail: github.message,
      ...(fix ? { fix } : {}),
    };
  }
  if (error instanceof GitError) {
    if (error.kind === "over-limit")
      return { retry: false, title: "The pull request is over a size limit", detail: error.message };
    const retry = error.kind === "network" || error.kind === "timeout";
    return { retry, title: `git ${error.subcommand} failed (${error.kind})`, detail: error.message };
  }
  return { retry: false, title: "Internal error", detail: error instanceof Error ? error.message : String(error) };
}
