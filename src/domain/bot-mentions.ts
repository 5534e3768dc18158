const BOT_MENTION = /(^|[^\w`])@[A-Za-z0-9][A-Za-z0-9-]*\[bot\]/;

/** Whether a review comment mentions a bot account by its login (`@slug[bot]`); the worker checks it is this app's. */
export function mentionsABot(body: string): boolean {
  return BOT_MENTION.test(body);
}

/** Whether `body` mentions this app's bot (`@<slug>[bot]`), case-insensitively. */
export function mentionsBot(body: string, botLogin: string): boolean {
  const escaped = botLogin.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^\\w\`])@${escaped}(?![\\w-])`, "i").test(body);
}
