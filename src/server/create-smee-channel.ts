import { SmeeClient } from "smee-client";

/** smee.io's address for a new channel: it answers with a redirect to the channel. */
export const SMEE_NEW_CHANNEL_URL = "https://smee.io/new";

/** A new webhook proxy channel (its URL), as Probot's setup makes one; rejects when the service cannot be reached. */
export function createSmeeChannel(newChannelUrl: string = SMEE_NEW_CHANNEL_URL): Promise<string> {
  return SmeeClient.createChannel({ newChannelUrl });
}
