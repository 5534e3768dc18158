import { createNodeMiddleware, Webhooks } from "@octokit/webhooks";
import type { Logger } from "pino";
import { Probot } from "probot";
import { withBodyDigest } from "../intake/delivery-body-digest.js";
import type { Refusals } from "../refusals/refusals.js";
import { limitWebhookBody } from "./webhook/limit-webhook-body.js";
import { recordInvalidDeliveries } from "./webhook/record-invalid-deliveries.js";
import { refuseMalformedDeliveries } from "./webhook/refuse-malformed-deliveries.js";

type ProbotOptions = ConstructorParameters<typeof Probot>[0] & {
  /** False in a worker process (ROLE=worker): deliveries are answered 503, for a web process to take. */
  acceptWebhooks?: boolean;
  /** Where refused webhook requests go (counted, kept for the operator page); absent = nothing recorded. */
  refusals?: Refusals;
};

/**
 * Probot, with webhooks served by a plain @octokit/webhooks instance (the library Probot itself uses:
 * same signature check, same middleware, same status codes). What it leaves out is Probot's per-event
 * transform, which builds an authenticated Octokit and a child logger for every delivery: our handlers
 * never call GitHub (they journal a record and return; workers get their client from `auth()`), and that
 * Octokit, built and thrown away a hundred times a second, was what kept the garbage collector's longest
 * pauses in the webhook answer (bench: ack p99). And a body over GitHub's 25 MB is refused (413) before
 * the middleware buffers it: see limitWebhookBody; a signed body that is not a JSON object, or an empty
 * event name, is refused (400) before the middleware fails on it: see refuseMalformedDeliveries. Refused
 * requests (too large, unsigned, not JSON, not an object) are recorded as refusals after their answer
 * (limitWebhookBody, refuseMalformedDeliveries, recordInvalidDeliveries). Everything else —
 * `auth()`, `log`, the Server, the setup flow — is Probot's.
 */
export class NoMistakesProbot extends Probot {
  /** Where handlers subscribe: events carry `id`, `name` and `payload`, nothing else. */
  readonly events: Webhooks;
  private readonly acceptWebhooks: boolean;
  private readonly refusals: Refusals | undefined;

  constructor(options: ProbotOptions = {}) {
    super(options);
    this.acceptWebhooks = options.acceptWebhooks !== false;
    this.refusals = options.refusals;
    this.events = new Webhooks({
      secret: options.secret ?? "development",
      ...(options.log ? { log: options.log } : {}),
    });
    // Every verified delivery's handlers run knowing its body's digest (the intake keeps it: replays).
    const verifyAndReceive = this.events.verifyAndReceive;
    this.events.verifyAndReceive = (event) => withBodyDigest(event.signature, () => verifyAndReceive(event));
    this.events.onError((error) => {
      const log = this.log;
      for (const cause of error.errors ?? [error])
        log.error({ err: cause, deliveryId: error.event?.id, event: error.event?.name }, "webhook handler failed");
    });
  }

  override async getNodeMiddleware(
    options: { log?: Logger; path?: string } = {},
  ): Promise<ReturnType<typeof createNodeMiddleware>> {
    const log = options.log ?? this.log;
    const path = options.path ?? this.webhookPath;
    if (!this.acceptWebhooks) return refuseWebhooks(path, log);
    const middleware = createNodeMiddleware(this.events, { log, path });
    const { refusals, events } = this;
    const recorded = refusals ? recordInvalidDeliveries(middleware, { path, refusals }) : middleware;
    const verify = (body: string, signature: string) => events.verify(body, signature);
    return limitWebhookBody(refuseMalformedDeliveries(recorded, { verify, log, refusals }), { path, log, refusals });
  }

  /** Delivers an event to the handlers without a signature check (tests, replays). */
  override async receive(event: Parameters<Probot["receive"]>[0]): Promise<void> {
    await this.events.receive(event as Parameters<Webhooks["receive"]>[0]);
  }
}

/**
 * A worker's webhook path: 503 with the reason, so GitHub marks the delivery failed (and the delivery
 * sweep of a web process redelivers it) instead of a worker swallowing it with a 2xx.
 */
function refuseWebhooks(path: string, log: Logger): ReturnType<typeof createNodeMiddleware> {
  let warned = false;
  return async (req, res) => {
    if (req.url?.split("?")[0] !== path) return false;
    if (!warned) {
      warned = true;
      log.warn(
        { path },
        "a webhook reached a worker process (ROLE=worker): point GitHub, or the load balancer, at the web processes",
      );
    }
    req.resume();
    res
      .writeHead(503, { "content-type": "application/json" })
      .end(JSON.stringify({ error: "this process is a worker (ROLE=worker); webhooks go to a web process" }));
    return true;
  };
}
