/** A short reply that confirms a ruling: "confirm", "confirmed", "I confirm", "+1", 👍. */
export function isConfirmation(body: string): boolean {
  const first = body.trim().split("\n")[0]!.trim();
  return /^(i\s+)?confirm(ed)?\b/i.test(first) || /^(\+1|👍(🏻|🏼|🏽|🏾|🏿)?)[.!\s]*$/u.test(first);
}
