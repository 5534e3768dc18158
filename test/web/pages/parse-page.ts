import { parse, type DefaultTreeAdapterMap } from "parse5";

type Node = DefaultTreeAdapterMap["node"];
export type Element = DefaultTreeAdapterMap["element"];

export interface ParsedPage {
  /** Every element, in document order. */
  elements: Element[];
  /** Every comment's text. */
  comments: string[];
  byTag(tag: string): Element[];
  /** Elements whose class list has `name`. */
  byClass(name: string): Element[];
  byId(id: string): Element | undefined;
  attr(element: Element, name: string): string | undefined;
  /** The text a reader sees in a node (its text nodes joined); the whole document's without one. */
  text(node?: Node): string;
}

/** A page parsed the way a browser parses it (parse5, the WHATWG algorithm), with a few finders for tests. */
export function parsePage(markup: string): ParsedPage {
  const elements: Element[] = [];
  const comments: string[] = [];
  const walk = (node: Node): void => {
    if (node.nodeName === "#comment") comments.push((node as DefaultTreeAdapterMap["commentNode"]).data);
    if ("tagName" in node) elements.push(node);
    if ("childNodes" in node) for (const child of node.childNodes) walk(child);
    if ("content" in node) walk(node.content);
  };
  const document = parse(markup);
  walk(document);
  return {
    elements,
    comments,
    byTag: (tag) => elements.filter((e) => e.tagName === tag),
    byClass: (name) => elements.filter((e) => (attr(e, "class") ?? "").split(/\s+/).includes(name)),
    byId: (id) => elements.find((e) => attr(e, "id") === id),
    attr,
    text: (node = document) => textOf(node),
  };
}

function attr(element: Element, name: string): string | undefined {
  return element.attrs.find((a) => a.name === name)?.value;
}

function textOf(node: Node): string {
  if (node.nodeName === "#text") return (node as DefaultTreeAdapterMap["textNode"]).value;
  if ("childNodes" in node) return node.childNodes.map(textOf).join("");
  return "";
}
