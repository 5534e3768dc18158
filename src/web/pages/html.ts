import { escapeHtml } from "./escape-html.js";
import { HtmlSafe } from "./html-safe.js";

/** Where a value sits in the template: between elements, in a quoted attribute, a whole link address, or inside a tag. */
type Slot = "text" | "attribute" | "url" | "tag";

const URL_ATTRIBUTE = /\s(?:href|src|action|formaction)\s*=\s*["']$/i;
const PARTIAL_URL_ATTRIBUTE = /\s(?:href|src|action|formaction)\s*=\s*["'][^"']*$/i;
const slotsByTemplate = new WeakMap<TemplateStringsArray, Slot[]>();

/**
 * The one way pages make markup. Every value is escaped (`& < > " ' \``) unless it is HtmlSafe and
 * allowed where it sits: markup from `html` between elements or inside a tag; text from
 * `untrustedText` between elements or in an attribute; a `safeUrl` there too, and alone it is the only
 * thing an `href`, `src` or `action` takes. Arrays are joined; `undefined`, `null` and `false` render
 * nothing (as a link address they throw). The template itself is checked once per call site: an
 * unquoted attribute value, a plain string inside a tag, or a link address built from pieces throws.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): HtmlSafe {
  const slots = slotsOf(strings);
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) {
    out += render(values[i], slots[i]!) + strings[i + 1]!;
  }
  return new HtmlSafe(out, "markup");
}

function render(value: unknown, slot: Slot): string {
  if (value === undefined || value === null || value === false) {
    // An empty href would link to the page itself: a refused address means no link, decided by the caller.
    if (slot === "url") throw new Error("html: a link address is missing (safeUrl refused it?)");
    return "";
  }
  if (value instanceof HtmlSafe) {
    if (allowed(value.kind, slot)) return value.markup;
    throw new Error(`html: ${value.kind} cannot go in ${slot === "url" ? "a link address" : `a ${slot}`}`);
  }
  if (Array.isArray(value)) {
    if (slot === "url") throw new Error("html: a link address must be one safeUrl");
    let joined = "";
    for (const item of value) joined += render(item, slot);
    return joined;
  }
  if (slot === "url") throw new Error("html: a link address must come from safeUrl");
  if (slot === "tag") throw new Error("html: only markup from html can go inside a tag");
  return escapeHtml(String(value));
}

function allowed(kind: HtmlSafe["kind"], slot: Slot): boolean {
  switch (slot) {
    case "text":
      return true;
    case "attribute":
      return kind !== "markup";
    case "url":
      return kind === "url";
    case "tag":
      return kind === "markup";
  }
}

function slotsOf(strings: TemplateStringsArray): Slot[] {
  const known = slotsByTemplate.get(strings);
  if (known) return known;
  const slots: Slot[] = [];
  let state: "text" | "tag" | '"' | "'" = "text";
  let sinceQuote = "";
  for (let i = 0; i < strings.length - 1; i++) {
    const part = strings[i]!;
    for (let j = 0; j < part.length; j++) {
      const c = part[j]!;
      if (state === "text") {
        if (c === "<" && /[A-Za-z/]/.test(part[j + 1] ?? "")) state = "tag";
      } else if (state === "tag") {
        if (c === '"' || c === "'") state = c;
        else if (c === ">") state = "text";
      } else if (c === state) {
        state = "tag";
      }
    }
    sinceQuote = state === '"' || state === "'" ? sinceQuote + part : "";
    if (state === "text") slots.push("text");
    else if (state === "tag") {
      if (/=\s*$/.test(part)) throw new Error(`html: unquoted attribute value after "${part.slice(-30)}"`);
      slots.push("tag");
    } else if (URL_ATTRIBUTE.test(part)) slots.push("url");
    else if (PARTIAL_URL_ATTRIBUTE.test(part) || PARTIAL_URL_ATTRIBUTE.test(sinceQuote)) {
      throw new Error(`html: a link address must be one safeUrl, not built in the template ("${part.slice(-30)}")`);
    } else slots.push("attribute");
  }
  slotsByTemplate.set(strings, slots);
  return slots;
}
