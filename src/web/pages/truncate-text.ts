/** At most `max` characters (a code point is never split), with a note of how many were left out. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return `${text.slice(0, cut)}\n… (${text.length - cut} more characters)`;
}
