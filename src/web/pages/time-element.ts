import { HtmlSafe } from "./html-safe.js";

/** A moment as `<time datetime="…Z">2026-12-04 18:29:36 UTC</time>`; a dash when there is none. */
export function timeElement(at: Date | null | undefined): HtmlSafe {
  if (!at || Number.isNaN(at.getTime())) return new HtmlSafe("—", "markup");
  // An ISO date has nothing to escape.
  const iso = at.toISOString();
  return new HtmlSafe(`<time datetime="${iso}">${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC</time>`, "markup");
}
