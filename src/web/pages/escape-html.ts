const SPECIAL = /[&<>"'`]/;
const SPECIAL_ALL = /[&<>"'`]/g;
const ENTITY: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;",
};

/** Text made safe between elements and inside a quoted attribute value. */
export function escapeHtml(text: string): string {
  return SPECIAL.test(text) ? text.replace(SPECIAL_ALL, (c) => ENTITY[c]!) : text;
}
