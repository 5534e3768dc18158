import type { GitHubClient } from "../github/github-client.js";
import { asGitHubError } from "./job/classify-failure.js";

/**
 * The job's GitHub clients, with every failure shown to `onFailure` before it goes on to whoever
 * called: a failure the pipeline handles itself (a review that ends on the check run) is still seen by
 * processRun, which reports 401/403 once. A failing installation-token request becomes a GitHubError.
 */
export function watchGitHub(
  github: (installationId: number) => Promise<GitHubClient>,
  onFailure: (error: unknown) => void,
): (installationId: number) => Promise<GitHubClient> {
  return async (installationId) => {
    let client: GitHubClient;
    try {
      client = await github(installationId);
    } catch (error) {
      const failure = asGitHubError(error) ?? error;
      onFailure(failure);
      throw failure;
    }
    return new Proxy(client, {
      get(target, key, receiver) {
        const value: unknown = Reflect.get(target, key, receiver);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          const result: unknown = value.apply(target, args);
          if (!(result instanceof Promise)) return result;
          return result.catch((error: unknown) => {
            onFailure(error);
            throw error;
          });
        };
      },
    });
  };
}
