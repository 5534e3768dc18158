import type { Logger } from "pino";
import { Probot, ProbotOctokit, Server } from "probot";
import type { EnvConfig } from "../../config/env/env-config.js";
import { logGitHubRetries } from "../../github/log-github-retries.js";
import { countGitHubRequests } from "../../metrics/count-github-requests.js";
import type { Metrics } from "../../metrics/metrics.js";
import type { Refusals } from "../../refusals/refusals.js";
import { NoMistakesProbot } from "../../server/no-mistakes-probot.js";
import { quietProbotLog } from "../../server/quiet-probot-log.js";

/**
 * Probot's HTTP server, not yet listening: our Probot (webhook limits and refusals) once the App is
 * registered, Probot's own with placeholder credentials for the setup flow before.
 */
export function createHttpServer(
  config: EnvConfig,
  log: Logger,
  metrics: Metrics,
  refusals: Refusals,
  answersWebhooks: boolean,
): Server {
  const probotOptions = config.app
    ? { appId: config.app.appId, privateKey: config.app.privateKey, secret: config.app.webhookSecret }
    : { appId: 1, privateKey: "unused in setup mode", secret: "development" };
  return new Server({
    host: config.host,
    // Probot reads 0 as "unset" (and would take 3000); the string "0" reaches listen() as "any free port".
    port: config.port === 0 ? ("0" as unknown as number) : config.port,
    webhookPath: config.webhookPath,
    // Probot's banner and per-request lines (with every header) go to debug: logRequests and bannerLine say it in one line.
    log: quietProbotLog(log), // WEBHOOK_PROXY_URL is forwarded by startWebhookProxy, once the server listens
    Probot: (config.app ? NoMistakesProbot : Probot).defaults({
      ...probotOptions,
      ...(config.app ? { acceptWebhooks: answersWebhooks, refusals } : {}),
      baseUrl: config.github.baseUrl,
      log,
      Octokit: logGitHubRetries(countGitHubRequests(ProbotOctokit, metrics)),
    }),
  });
}
