/** The host as a person types it into a browser: an any-address bind is `localhost`, an IPv6 address is bracketed. */
export function printableHost(host: string): string {
  if (host === "" || host === "0.0.0.0" || host === "::") return "localhost";
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}
