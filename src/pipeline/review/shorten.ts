/** Text cut to `limit` characters, saying how many more there were. */
export function shorten(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}… [cut: ${text.length - limit} more characters]` : text;
}
