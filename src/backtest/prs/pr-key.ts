/**
 * How a pull request is named in a golden or pairs file: its URL (`https://github.com/<owner>/<repo>/pull/<n>`,
 * any host), its number (`12`, `"#12"`), or its commits (`<base>..<head>`, any revisions the clone knows).
 */
export interface PrKey {
  /** As written, for messages and reports. */
  text: string;
  number?: number;
  /** `owner/repo`, from a URL. */
  repo?: string;
  base?: string;
  head?: string;
}

/** Reads a PR key; throws with the value when it is none of the accepted forms. */
export function parsePrKey(value: unknown): PrKey {
  if (typeof value === "number" && Number.isInteger(value) && value > 0) return { text: String(value), number: value };
  if (typeof value !== "string") throw new Error(`not a pull request key: ${JSON.stringify(value)}`);
  const text = value.trim();
  const url = /^https?:\/\/[^/]+\/([^/]+\/[^/]+)\/pull\/(\d+)\/?(?:[?#].*)?$/.exec(text);
  if (url) return { text, repo: url[1], number: Number(url[2]) };
  const number = /^#?(\d+)$/.exec(text);
  if (number && Number(number[1]) > 0) return { text, number: Number(number[1]) };
  const range = /^([^.\s]+(?:\.[^.\s]+)*)\.\.([^.\s]+(?:\.[^.\s]+)*)$/.exec(text);
  if (range) return { text, base: range[1], head: range[2] };
  throw new Error(`not a pull request key (a PR URL, a number or <base>..<head>): ${JSON.stringify(value)}`);
}
