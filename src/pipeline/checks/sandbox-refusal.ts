/** Output that shows a command reaching for the network, which no check or reproducer has. */
const NETWORK =
  /\b(ECONNREFUSED|ENETUNREACH|EHOSTUNREACH|EAI_AGAIN|ENOTFOUND|Network is unreachable|Temporary failure in name resolution|Name or service not known|getaddrinfo)\b/;
/** A line saying a file is not there. */
const MISSING = /no such file or directory|ENOENT/i;
/** Paths in such a line: absolute, or climbing out of the checkout. */
const PATH = /(?:^|[\s'"`(=])((?:\/|\.\.\/)[^\s'"`:,)]*)/g;

/**
 * Whether a failing command's output shows the sandbox refusing it rather than the code failing: it tried the
 * network, or a path outside the checkout (`/workspace`) and the private `/tmp` that the sandbox does not show.
 * A failure of that kind proves nothing about the PR's code. Undefined when the output shows neither.
 */
export function sandboxRefusal(output: string): string | undefined {
  const net = NETWORK.exec(output);
  if (net) return `it tried to reach the network (${net[1]}), which a reproducer does not have`;
  for (const line of output.split("\n")) {
    if (!MISSING.test(line)) continue;
    for (const [, path] of line.matchAll(PATH))
      if (path && !/^\/(workspace|tmp)(\/|$)/.test(path) && path !== "/")
        return `it tried to read ${JSON.stringify(path.slice(0, 80))}, outside the checkout the sandbox shows`;
  }
  return undefined;
}
