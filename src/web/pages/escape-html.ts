const SPECIAL = /[&<>"'`]/;

/** Text made safe between elements and inside a quoted attribute value: `& < > " ' \`` become references. */
export function escapeHtml(text: string): string {
  if (!SPECIAL.test(text)) return text;
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    let entity: string;
    switch (text.charCodeAt(i)) {
      case 38:
        entity = "&amp;";
        break;
      case 60:
        entity = "&lt;";
        break;
      case 62:
        entity = "&gt;";
        break;
      case 34:
        entity = "&quot;";
        break;
      case 39:
        entity = "&#39;";
        break;
      case 96:
        entity = "&#96;";
        break;
      default:
        continue;
    }
    out += text.slice(from, i) + entity;
    from = i + 1;
  }
  return out + text.slice(from);
}
