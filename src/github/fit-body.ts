/** GitHub refuses comment and review bodies over 65,536 characters: cut them, keeping the hidden markers at the end. */
export function fitBody(body: string, max = 65_000): string {
  if (body.length <= max) return body;
  const markers = body.match(/<!-- no-mistakes:[^>]*-->/g) ?? [];
  const tail = `\n\n… (cut to fit GitHub's size limit)\n\n${markers.join("\n")}`;
  return `${body.slice(0, max - tail.length)}${tail}`;
}
