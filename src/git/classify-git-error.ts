import type { GitErrorKind } from "./git-error.js";

// Checked in this order: a push rejection or an auth failure is often followed by generic lines
// ("the remote end hung up", "Could not read from remote repository") that must not win.
const PATTERNS: [Exclude<GitErrorKind, "timeout" | "over-limit" | "other">, RegExp][] = [
  [
    "rejected",
    /\[rejected\]|\[remote rejected\]|non-fast-forward|\(fetch first\)|updates were rejected|hook declined|protected branch|GH006|shallow update not allowed/i,
  ],
  [
    "auth",
    /authentication failed|could not read (username|password)|terminal prompts disabled|invalid username or password|returned error: 40[13]\b|\bHTTP 40[13]\b|permission to \S+ denied|write access to repository not granted|bad credentials/i,
  ],
  [
    "not-found",
    /repository not found|repository '[^']*' not found|does not appear to be a git repository|couldn't find remote ref|not our ref|bad object|bad revision|unknown revision|not a valid object name|invalid object name|needed a single revision|does not exist in '|returned error: 404\b|\bHTTP 404\b|no such remote|not a git repository/i,
  ],
  [
    "network",
    /could not resolve (host|proxy)|failed to connect|couldn't connect to server|connection refused|connection timed out|operation timed out|connection reset|network is unreachable|no route to host|early eof|unexpected disconnect|rpc failed|the remote end hung up unexpectedly|transfer closed|returned error: 5\d\d\b|\bHTTP 5\d\d\b|\bssl|openssl|gnutls|\btls\b/i,
  ],
];

/** The kind of a failed git command, from its stderr (`timeout` is decided by the runner). */
export function classifyGitError(stderr: string): GitErrorKind {
  for (const [kind, pattern] of PATTERNS) if (pattern.test(stderr)) return kind;
  return "other";
}
