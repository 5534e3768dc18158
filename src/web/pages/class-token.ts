/** A value (a status, a severity) as one class name's tail: lowercase letters, digits and dashes only. */
export function classToken(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9-]+/g, "");
}
