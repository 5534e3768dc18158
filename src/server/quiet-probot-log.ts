import type { Logger } from "pino";

/**
 * What Probot's Server and setup flow say at info that a person does not need: its version and
 * "Listening on" (our banner line says where to go), and the setup welcome, whose lines point at a page
 * that answers only with the one-time code.
 */
const CHATTER = [
  /^$/,
  /^Running Probot v/,
  /^Listening on http/,
  /^Welcome to Probot!$/,
  /^Probot is in setup mode/,
  /^custom routes will not work/,
  /^are configured in \.env\.$/,
  /^Please follow the instructions at /,
  /^Once you are done, restart the server\.$/,
];

/**
 * A child of `log` for Probot: its chatter (above) goes to debug, and its request logger (the child named
 * `http`, which logs every request at info with all its headers) is silent — logRequests logs requests.
 */
export function quietProbotLog(log: Logger): Logger {
  const quiet = log.child({});
  const info = quiet.info;
  const child = quiet.child;
  // Assigned on the instance, so its children inherit both (pino's children are prototype copies).
  quiet.info = function (this: Logger, ...args: unknown[]) {
    if (typeof args[0] === "string" && CHATTER.some((line) => line.test(args[0] as string)))
      return (this.debug as (...a: unknown[]) => void)(...args);
    return (info as (...a: unknown[]) => void).apply(this, args);
  } as Logger["info"];
  quiet.child = function (this: Logger, bindings, options) {
    const made = child.call(this, bindings, options);
    if (bindings.name === "http") made.level = "silent";
    return made;
  } as Logger["child"];
  return quiet;
}
