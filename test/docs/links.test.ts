import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The README and every Markdown file under docs/, repo-relative. */
const FILES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** The text as GitHub renders links from it: fenced code blocks and inline code spans blanked out. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/(`+)[^`\n]*?\1/g, "``");
}

/** Link and image targets (`[text](target)`, `![alt](target "title")`). */
function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const text = m[1]!.replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1");
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** What is wrong with one relative link of `file`, or undefined when it resolves. */
function brokenLink(file: string, target: string): string | undefined {
  const [path, anchor] = target.split("#", 2) as [string, string | undefined];
  const resolved = path === "" ? join(ROOT, file) : join(ROOT, dirname(file), decodeURIComponent(path));
  if (!existsSync(resolved)) return `${file}: ${target} — no such file`;
  if (anchor === undefined || !resolved.endsWith(".md") || statSync(resolved).isDirectory()) return undefined;
  if (anchors(readFileSync(resolved, "utf8")).has(decodeURIComponent(anchor).toLowerCase())) return undefined;
  return `${file}: ${target} — no heading #${anchor} in ${relative(ROOT, resolved)}`;
}

describe("links in the README and docs/", () => {
  it("reads the README and the docs", () => {
    expect(FILES).toContain("README.md");
    expect(FILES.length).toBeGreaterThan(5);
  });

  it.each(FILES)("every relative link in %s points at an existing file and heading", (file) => {
    const targets = linkTargets(readFileSync(join(ROOT, file), "utf8")).filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
    expect(targets.map((t) => brokenLink(file, t)).filter(Boolean)).toEqual([]);
  });

  it("finds GitHub's anchors for headings with code, punctuation and repeats", () => {
    const md = "# A `b.c`: d_e\n```sh\n# not a heading\n```\n## Twice\n## Twice\n";
    expect([...anchors(md)]).toEqual(["a-bc-d_e", "twice", "twice-1"]);
    expect(linkTargets('[x](a.md#b) `[y](c.md)` ![z](d.png "t")')).toEqual(["a.md#b", "d.png"]);
  });
});
