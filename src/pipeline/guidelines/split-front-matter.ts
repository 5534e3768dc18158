/**
 * A rule file's front matter (between a first line `---` and the next `---`) and the text after it.
 * Read leniently, line by line, as Copilot and Cursor files are written (`globs: *.ts, src/**` is not
 * valid YAML): `key: value`, a value in quotes, `[a, b]`, or `- item` lines under an empty `key:`.
 * Text without front matter comes back whole, with no fields.
 */
export function splitFrontMatter(text: string): { fields: Record<string, string | string[]>; body: string } {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines[0]?.trim() !== "---") return { fields: {}, body: text };
  const end = lines.findIndex((line, i) => i > 0 && line.trim() === "---");
  if (end === -1) return { fields: {}, body: text };
  const fields: Record<string, string | string[]> = {};
  let listKey: string | undefined;
  for (const line of lines.slice(1, end)) {
    const item = /^\s+-\s*(.*)$/.exec(line) ?? /^-\s+(.*)$/.exec(line);
    if (item && listKey !== undefined) {
      const list = fields[listKey];
      fields[listKey] = [...(Array.isArray(list) ? list : []), unquote(item[1]!)];
      continue;
    }
    const pair = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!pair) continue;
    const [, key, raw] = pair as unknown as [string, string, string];
    const value = raw.trim();
    listKey = value === "" ? key : undefined;
    if (value === "") fields[key] = [];
    else if (value.startsWith("[") && value.endsWith("]"))
      fields[key] = value.slice(1, -1).split(",").map(unquote).filter(Boolean);
    else fields[key] = unquote(value);
  }
  return { fields, body: lines.slice(end + 1).join("\n") };
}

function unquote(value: string): string {
  const v = value.trim();
  return /^(["']).*\1$/.test(v) && v.length >= 2 ? v.slice(1, -1) : v;
}
