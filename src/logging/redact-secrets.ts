/** Token shapes that must never be printed, whoever's they are. */
const TOKEN_PATTERNS: RegExp[] = [
  /\bgh[pousr]_[A-Za-z0-9]{20,}\b/g, // GitHub tokens (installation tokens are ghs_)
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,
  /\bv1\.[0-9a-f]{40}\b/g, // legacy installation tokens
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
  /\bsk-(?:ant-)?[A-Za-z0-9_-]{16,}\b/g, // Anthropic / OpenAI keys
  /(authorization"?\s*[:=]\s*"?(?:bearer|token|basic)\s+)[^\s"'\\]+/gi, // also `"authorization":"token x"` in a JSON line
  /(x-access-token:)[^@\s"']+(@)/gi, // credentials in clone URLs
];

/** Any of the shapes, in one pass: most lines hold none, and then one scan is all they cost. */
const ANY_TOKEN = new RegExp(TOKEN_PATTERNS.map((p) => p.source).join("|"), "i");

export const REDACTED = "[redacted]";

/**
 * Returns a function that replaces known secret values and token shapes in a string. A secret is
 * also found in its JSON-escaped form (a PEM key's newlines become `\n`), so the function can
 * scrub a finished JSON log line as well as a plain string.
 */
export function createSecretRedactor(secrets: readonly string[]): (text: string) => string {
  const long = secrets.filter((s) => s.length >= 8);
  const escaped = long.map((s) => JSON.stringify(s).slice(1, -1));
  const known = [...new Set([...long, ...escaped])].sort((a, b) => b.length - a.length);
  return (text: string) => {
    let out = text;
    for (const secret of known) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    if (!ANY_TOKEN.test(out)) return out;
    for (const pattern of TOKEN_PATTERNS) {
      out = out.replace(pattern, (match, prefix?: string, suffix?: string) =>
        typeof prefix === "string" && typeof suffix === "string"
          ? `${prefix}${REDACTED}${suffix}`
          : typeof prefix === "string"
            ? `${prefix}${REDACTED}`
            : REDACTED,
      );
    }
    return out;
  };
}
