import type { ProbotOctokit } from "probot";
import { callGitHub } from "./call-github.js";

type Octokit = InstanceType<typeof ProbotOctokit>;

/** One attempt at delivering a webhook to the App, as GitHub's delivery log has it. */
export interface HookDelivery {
  /** This attempt's id (what a redelivery is asked for by). */
  id: number;
  /** The delivery's id, shared by the original attempt and its redeliveries: the X-GitHub-Delivery header. */
  guid: string;
  deliveredAt: Date;
  redelivery: boolean;
  /** The App's HTTP answer; 0 when GitHub got none (refused connection, timeout). */
  statusCode: number;
  event: string;
  action: string | null;
}

export interface HookDeliveryPage {
  /** Newest first. */
  deliveries: HookDelivery[];
  /** The next (older) page's cursor; undefined on the last page. */
  nextCursor?: string;
}

/** The App's webhook delivery log. Failures are GitHubErrors. */
export interface AppHookDeliveries {
  listDeliveries(cursor?: string): Promise<HookDeliveryPage>;
  /** Asks GitHub to send this attempt's delivery again (it answers 202 and sends it soon after). */
  redeliver(id: number): Promise<void>;
}

const PAGE_SIZE = 100;

/**
 * The delivery log over an Octokit authenticated AS THE APP (a JWT: Probot's `auth()` without an
 * installation id); GitHub refuses installation tokens here.
 */
export function appHookDeliveries(octokit: Octokit): AppHookDeliveries {
  return {
    async listDeliveries(cursor) {
      const { data, headers } = await callGitHub("list webhook deliveries", () =>
        octokit.rest.apps.listWebhookDeliveries({ per_page: PAGE_SIZE, ...(cursor ? { cursor } : {}) }),
      );
      return {
        deliveries: data.map((d) => ({
          id: Number(d.id),
          guid: d.guid,
          deliveredAt: new Date(d.delivered_at),
          redelivery: d.redelivery,
          statusCode: d.status_code,
          event: d.event,
          action: d.action,
        })),
        nextCursor: nextCursor(headers.link),
      };
    },
    async redeliver(id) {
      // Sent once: a lost answer is seen in the log at the next sweep, and a duplicate is harmless anyway.
      await callGitHub("redeliver webhook delivery", () =>
        octokit.rest.apps.redeliverWebhookDelivery({
          delivery_id: id,
          request: { retries: 0 } as Record<string, unknown>,
        }),
      );
    },
  };
}

/** The `cursor` of the Link header's rel="next" URL. */
export function nextCursor(link: string | undefined): string | undefined {
  const next = link?.split(",").find((part) => /rel="next"/.test(part));
  const url = next && /<([^>]+)>/.exec(next)?.[1];
  if (!url) return undefined;
  return new URL(url, "https://api.github.com").searchParams.get("cursor") ?? undefined;
}
