/** One command as a single-quoted shell word (the text comes from the trusted config; quoted all the same). */
function shellWord(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The setup's commands as one script run in one sandbox (each builds on the one before): every command
 * under its own time limit (coreutils `timeout`), stopping at the first that fails, which it names by its
 * place in `checks.setup`.
 */
export function setupScript(commands: readonly { run: string; timeout: number }[]): string {
  return commands
    .map((c, i) => {
      const step = `checks.setup[${i}]`;
      const why = `$([ $code -eq 124 ] && echo "passed its time limit of ${c.timeout} s" || echo "exited $code")`;
      return `timeout -k 5 ${c.timeout} /bin/sh -c ${shellWord(c.run)} || { code=$?; echo "no-mistakes: ${step} ${why}" >&2; exit $code; }`;
    })
    .join("\n");
}

/** The whole setup's time limit: its commands' limits and a little for the sandbox. */
export function setupTimeoutMs(commands: readonly { timeout: number }[]): number {
  return (commands.reduce((sum, c) => sum + c.timeout, 0) + 30) * 1000;
}
