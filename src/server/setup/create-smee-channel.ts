/** smee.io's address for a new channel: it answers with a redirect to the channel. */
export const SMEE_NEW_CHANNEL_URL = "https://smee.io/new";

/**
 * A new webhook proxy channel (its URL), as Probot's setup makes one; rejects when the service cannot
 * be reached, or has not answered within `timeoutMs` (setup does not wait on a network that hangs).
 */
export async function createSmeeChannel(
  newChannelUrl: string = SMEE_NEW_CHANNEL_URL,
  timeoutMs = 10_000,
): Promise<string> {
  const { SmeeClient } = await import("smee-client"); // loaded only where a channel is wanted
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${newChannelUrl} did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([SmeeClient.createChannel({ newChannelUrl }), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
