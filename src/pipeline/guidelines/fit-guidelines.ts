import type { Guideline } from "./guideline.js";

/**
 * The guidelines a prompt carries within `maxBytes`, in their order (most specific first): each is given
 * whole or left out whole — never cut mid-text — and a later, smaller one may still fit after a larger one
 * was left out. A file too large to read is always left out.
 */
export function fitGuidelines(
  guidelines: readonly Guideline[],
  maxBytes: number,
): { given: Guideline[]; cut: Guideline[] } {
  const given: Guideline[] = [];
  const cut: Guideline[] = [];
  let left = maxBytes;
  for (const guideline of guidelines) {
    if (guideline.text !== undefined && guideline.bytes <= left) {
      given.push(guideline);
      left -= guideline.bytes;
    } else cut.push(guideline);
  }
  return { given, cut };
}
