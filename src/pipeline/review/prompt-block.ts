import { GUIDELINES_TAG } from "../guidelines/render-guidelines-block.js";
import { escapeTags } from "../workspace/escape-tags.js";

/** Content inside `<name>` … `</name>`, with anything that looks like one of our tags defused. */
export function promptBlock(name: string, content: string): string {
  return `<${name}>\n${escapeTags(content, OUR_TAGS)}\n</${name}>`;
}

const OUR_TAGS = [
  "untrusted-",
  "open-findings",
  "kept-notes",
  "repo-instructions",
  "ledger-changes",
  "closed-findings",
  GUIDELINES_TAG,
];
