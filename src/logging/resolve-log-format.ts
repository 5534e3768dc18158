/** What LOG_FORMAT asks for; `auto` is decided by where the lines go. */
export type LogFormat = "auto" | "pretty" | "json";

/** `auto` is pretty for a person at a terminal and JSON for everything else (a pipe, a file, a log collector). */
export function resolveLogFormat(format: LogFormat, isTTY: boolean | undefined): "pretty" | "json" {
  if (format !== "auto") return format;
  return isTTY === true ? "pretty" : "json";
}
