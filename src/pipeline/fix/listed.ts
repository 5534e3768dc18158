/** Paths for a refusal's reason: the first few, comma-separated, and how many more there were. */
export function listed(paths: readonly string[], max = 5): string {
  const shown = paths.slice(0, max).join(", ");
  return paths.length > max ? `${shown} and ${paths.length - max} more` : shown;
}
