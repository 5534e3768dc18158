/**
 * Which hosts a setup may reach: `registry.npmjs.org` (ports 443 and 80), `*.pythonhosted.org` (its
 * subdomains, same ports), `127.0.0.1:4873` (that port only). Matching is on the name the client asked for;
 * nothing else of the network is reachable.
 */
export interface EgressRule {
  host: string;
  /** Undefined: 443 and 80. */
  port?: number;
  wildcard: boolean;
}

/** The registries the app allows when the operator names none (npm, PyPI, Go modules, crates.io). */
export const DEFAULT_REGISTRIES = [
  "registry.npmjs.org",
  "registry.yarnpkg.com",
  "pypi.org",
  "files.pythonhosted.org",
  "proxy.golang.org",
  "sum.golang.org",
  "index.crates.io",
  "static.crates.io",
];

/** Parses one rule; throws with the reason when it is none. */
export function parseEgressRule(text: string): EgressRule {
  const match = /^(\*\.)?([a-z0-9.-]+|\[[0-9a-f:]+\])(?::(\d{1,5}))?$/i.exec(text.trim());
  if (!match || match[2]!.startsWith(".") || match[2]!.endsWith("."))
    throw new Error(`\`${text}\` is not a host, \`*.\`host or host:port`);
  const port = match[3] === undefined ? undefined : Number(match[3]);
  if (port !== undefined && (port < 1 || port > 65_535)) throw new Error(`\`${text}\`: no such port`);
  return { host: match[2]!.toLowerCase(), ...(port === undefined ? {} : { port }), wildcard: match[1] !== undefined };
}

/** Whether `host:port` (as the client asked for it) is allowed by one of the rules. */
export function egressAllowed(rules: readonly EgressRule[], host: string, port: number): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return rules.some((rule) => {
    const portOk = rule.port === undefined ? port === 443 || port === 80 : port === rule.port;
    const hostOk = rule.wildcard ? name.endsWith(`.${rule.host}`) : name === rule.host;
    return portOk && hostOk;
  });
}
