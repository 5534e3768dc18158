import { escapeTags } from "../../text/escape-tags.js";
import { REVIEW_PROMPT_TAGS } from "../workspace/prompt-tags.js";

/** Content inside `<name>` … `</name>`, with anything that looks like one of our tags defused. */
export function promptBlock(name: string, content: string): string {
  return `<${name}>\n${escapeTags(content, REVIEW_PROMPT_TAGS)}\n</${name}>`;
}
