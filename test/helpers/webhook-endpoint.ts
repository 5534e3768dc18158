import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import type { IntakeRecord } from "../../src/intake/intake-record.js";
import { WebhookIntake } from "../../src/intake/webhook-intake.js";
import type { Metrics } from "../../src/metrics/metrics.js";
import { observeWebhookRequests } from "../../src/metrics/observe-webhook-requests.js";
import type { Refusals } from "../../src/refusals/refusals.js";
import { NoMistakesProbot } from "../../src/server/no-mistakes-probot.js";
import { onPullRequest } from "../../src/webhooks/on-pull-request.js";
import { captureLogger } from "./capture-logger.js";
import { signature } from "./signed-delivery.js";
import { tempDir } from "./temp-dir.js";
import { pullRequestPayload } from "./webhook-payloads.js";

const PATH = "/api/github/webhooks";

export interface WebhookEndpoint {
  /** http://127.0.0.1:PORT/api/github/webhooks */
  url: string;
  intake: WebhookIntake;
  /** The intake's journal directory. */
  dir: string;
  /** What the endpoint logged, parsed. */
  lines: () => Record<string, unknown>[];
  /** POSTs `body` as delivery `id` of `event` (default pull_request), signed with the secret unless `signature` is given. */
  post(
    id: string,
    body: string,
    options?: { event?: string; signature?: string },
  ): Promise<{ status: number; text: string }>;
}

const servers: Server[] = [];
const intakes: WebhookIntake[] = [];

/**
 * The app's webhook endpoint over HTTP on 127.0.0.1, as the app serves it: NoMistakesProbot's middleware,
 * the handlers `load` registers (default: the pull request handler, for `synchronize`), an intake applying
 * records with `apply` (at most `maxBacklog` waiting, else the intake's default); observed by `metrics` when given;
 * refused requests and deliveries recorded in `refusals` when given.
 * `closeWebhookEndpoints` closes every one.
 */
export async function serveWebhookEndpoint(options: {
  secret: string;
  apply: (record: IntakeRecord) => Promise<void>;
  maxBacklog?: number;
  metrics?: Metrics;
  refusals?: Refusals;
  load?: (probot: NoMistakesProbot, intake: WebhookIntake, log: Logger) => Promise<void>;
}): Promise<WebhookEndpoint> {
  const { secret, apply, maxBacklog, metrics, refusals, load = onSynchronize } = options;
  const { log, lines } = captureLogger();
  const dir = tempDir();
  const probot = new NoMistakesProbot({ appId: 1, privateKey: "unused", secret, log, refusals });
  const intake = WebhookIntake.open({ dir, apply, log, maxBacklog, metrics, refusals });
  intakes.push(intake);
  await load(probot, intake, log);
  const middleware = await probot.getNodeMiddleware({ path: PATH });
  const server = createServer(
    (req, res) => void middleware(req, res).then((handled) => handled || res.writeHead(404).end()),
  );
  servers.push(server);
  if (metrics) observeWebhookRequests(server, metrics, { path: PATH });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${PATH}`;
  const post: WebhookEndpoint["post"] = async (id, body, { event = "pull_request", signature: signed } = {}) => {
    const res = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-github-event": event,
        "x-github-delivery": id,
        "x-hub-signature-256": signed ?? signature(secret, body),
      },
      body,
    });
    return { status: res.status, text: await res.text() };
  };
  return { url, intake, dir, lines, post };
}

async function onSynchronize(probot: NoMistakesProbot, intake: WebhookIntake, log: Logger): Promise<void> {
  probot.events.on("pull_request.synchronize", async (event) => onPullRequest(event, intake, log));
}

/** Closes every endpoint served so far (its server, then its intake, given 100 ms to settle). */
export async function closeWebhookEndpoints(): Promise<void> {
  for (const server of servers.splice(0)) await new Promise((r) => server.close(r));
  for (const intake of intakes.splice(0)) await intake.stop(100);
}

/** The body of a pull_request.<action> delivery for PR 3 of o/r, its head at `headSha`. */
export function pullRequestBody(headSha: string, action = "synchronize"): string {
  return JSON.stringify(
    pullRequestPayload({
      action,
      number: 3,
      baseSha: "b".repeat(40),
      headRef: "f",
      headSha,
      cloneUrl: "https://github.com/o/r.git",
    }),
  );
}
