/**
 * A piece of a page that is already safe to place, and where: `markup` (elements, made by `html` only)
 * goes between elements; `text` (escaped text, made by `untrustedText`) goes between elements or in a
 * quoted attribute; `url` (an escaped, allowed address, made by `safeUrl`) goes in a link's `href` too.
 * Build one only through those three: the constructor trusts its argument.
 */
export class HtmlSafe {
  constructor(
    readonly markup: string,
    readonly kind: "markup" | "text" | "url",
  ) {}

  toString(): string {
    return this.markup;
  }
}
