import type { ProbotOctokit } from "probot";
import type { Metrics } from "./metrics.js";

type OctokitClass = typeof ProbotOctokit;
type Octokit = InstanceType<OctokitClass>;

/**
 * `Octokit` with every request counted in `github_requests_total{method,status}`: the status GitHub
 * answered, or `error` when no answer came (network, timeout). Its hooks wrap the other plugins', so a
 * request retried by the retry or throttling plugin counts once, with its final outcome. Every client
 * Probot builds from this class counts: the app's and the installations' (`auth()`), with the token
 * requests their authentication makes.
 */
export function countGitHubRequests<C extends OctokitClass>(Octokit: C, metrics: Metrics): C {
  return Octokit.plugin((octokit: Pick<Octokit, "hook">) => {
    octokit.hook.after("request", (response, options) => {
      metrics.githubRequests.inc({ method: methodOf(options.method), status: String(response.status) });
    });
    octokit.hook.error("request", (error, options) => {
      // Octokit reports a request that got no answer (reset, timeout) as status 500 without a response.
      const status = (error as { response?: { status?: unknown } }).response?.status;
      metrics.githubRequests.inc({
        method: methodOf(options.method),
        status: typeof status === "number" ? String(status) : "error",
      });
      throw error;
    });
    return {};
  }) as C;
}

function methodOf(method: unknown): string {
  return typeof method === "string" ? method.toUpperCase() : "GET";
}
