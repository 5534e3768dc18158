/**
 * The environment an agent CLI runs with: nothing is inherited unless it is on the allowlist below.
 * The CLI executes model-chosen tools in the workspace, so the app's secrets (GitHub tokens, the app's
 * private key, the database URL, the webhook secret) must never reach it.
 */

/** Variables taken from the parent environment (exact names). */
const INHERITED = new Set([
  "PATH",
  "LANG",
  "LANGUAGE",
  "TZ",
  "TMPDIR",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
]);

/** Variables taken from the parent environment by prefix. */
const INHERITED_PREFIXES = ["LC_"];

/**
 * Names never passed to an agent, whether inherited or given explicitly: tokens, secrets, keys of
 * the app itself, and anything GitHub-shaped. (The model API key is passed explicitly by the
 * adapter as ANTHROPIC_API_KEY / OPENAI_API_KEY, which match none of these.)
 */
const FORBIDDEN = [
  /TOKEN/i,
  /SECRET/i,
  /PASSWORD/i,
  /PRIVATE_KEY/i,
  /^DATABASE_URL$/i,
  /^PG(PASSWORD|USER|HOST|DATABASE|PORT)$/i,
  /^APP_ID$/i,
  /^CLIENT_ID$/i,
  /^GITHUB_/i,
  /^GH_/i,
];

export function isForbiddenAgentEnvName(name: string): boolean {
  return FORBIDDEN.some((pattern) => pattern.test(name));
}

/**
 * Allowlisted variables of `base` (default: process.env) plus `extra` (undefined values are
 * dropped; `extra` wins). Forbidden names are removed from both, always.
 */
export function buildAgentEnv(
  extra: Record<string, string | undefined>,
  base: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    if (!INHERITED.has(name) && !INHERITED_PREFIXES.some((p) => name.startsWith(p))) continue;
    if (isForbiddenAgentEnvName(name)) continue;
    env[name] = value;
  }
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined || isForbiddenAgentEnvName(name)) continue;
    env[name] = value;
  }
  env.PATH ??= "/usr/local/bin:/usr/bin:/bin";
  return env;
}
