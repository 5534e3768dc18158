import { createNodeMiddleware, Webhooks } from "@octokit/webhooks";
import type { Logger } from "pino";
import { Probot } from "probot";
import { limitWebhookBody } from "./limit-webhook-body.js";

type ProbotOptions = ConstructorParameters<typeof Probot>[0];

/**
 * Probot, with webhooks served by a plain @octokit/webhooks instance (the library Probot itself uses:
 * same signature check, same middleware, same status codes). What it leaves out is Probot's per-event
 * transform, which builds an authenticated Octokit and a child logger for every delivery: our handlers
 * never call GitHub (they journal a record and return; workers get their client from `auth()`), and that
 * Octokit, built and thrown away a hundred times a second, was what kept the garbage collector's longest
 * pauses in the webhook answer (bench: ack p99). And a body over GitHub's 25 MB is refused (413) before
 * the middleware buffers it: see limitWebhookBody. Everything else — `auth()`, `log`, the Server, the
 * setup flow — is Probot's.
 */
export class NoMistakesProbot extends Probot {
  /** Where handlers subscribe: events carry `id`, `name` and `payload`, nothing else. */
  readonly events: Webhooks;

  constructor(options: ProbotOptions = {}) {
    super(options);
    this.events = new Webhooks({ secret: options.secret ?? "development", ...(options.log ? { log: options.log } : {}) });
    this.events.onError((error) => {
      const log = this.log;
      for (const cause of error.errors ?? [error]) log.error({ err: cause, deliveryId: error.event?.id, event: error.event?.name }, "webhook handler failed");
    });
  }

  override async getNodeMiddleware(options: { log?: Logger; path?: string } = {}): Promise<ReturnType<typeof createNodeMiddleware>> {
    const log = options.log ?? this.log;
    const path = options.path ?? this.webhookPath;
    return limitWebhookBody(createNodeMiddleware(this.events, { log, path }), { path, log });
  }

  /** Delivers an event to the handlers without a signature check (tests, replays). */
  override async receive(event: Parameters<Probot["receive"]>[0]): Promise<void> {
    await this.events.receive(event as Parameters<Webhooks["receive"]>[0]);
  }
}
