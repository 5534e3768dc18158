import { describe, expect, it } from "vitest";
import { matchGlob } from "../../../src/pipeline/guidelines/match-glob.js";
import { callWithDeadline } from "../../helpers/call-with-deadline.js";

/** Far beyond what the linear matcher needs, far below what backtracking takes on these paths. */
const DEADLINE_MS = 30_000;
const DEEP = `${Array.from({ length: 2000 }, () => "d").join("/")}/x.js`;

describe("matchGlob", () => {
  it.each([
    ["src/**/*.ts", "src/a.ts", true],
    ["src/**/*.ts", "src/a/b/c.ts", true],
    ["src/**/*.ts", "lib/src/a.ts", false],
    ["**/*.ts", "a.ts", true],
    ["**/test/**", "pkg/test/a/b.ts", true],
    ["**/test/**", "pkg/tests/a.ts", false],
    ["src/**", "src", false],
    ["src/**", "src/a", true],
    ["*.md", "docs/deep/README.md", true],
    ["docs/*.md", "docs/deep/README.md", false],
    ["*.{js,jsx,ts}", "web/App.jsx", true],
    ["*.{js,jsx,ts}", "web/App.tsx", false],
    ["src/{db,api}/**/*.ts", "src/api/v1/x.ts", true],
    ["src/{db,api}/**/*.ts", "src/web/x.ts", false],
    ["file[0-9].txt", "file7.txt", true],
    ["file[0-9].txt", "filex.txt", false],
    ["file[!0-9].txt", "filex.txt", true],
    ["file[!0-9].txt", "file7.txt", false],
    ["?.ts", "a.ts", true],
    ["?.ts", "ab.ts", false],
    ["./src/*.ts", "src/a.ts", true],
    ["/src/*.ts", "src/a.ts", true],
    ["src/db/", "src/db/schema.ts", true],
    ["données/*.md", "données/é.md", true],
    ["a+b(c)$.ts", "a+b(c)$.ts", true],
    ["a+b(c)$.ts", "aab(c)$.ts", false],
  ])("%s vs %s → %s", (glob, path, expected) => {
    expect(matchGlob(glob, path)).toBe(expected);
  });

  it.each([
    ["**/**/**/**/*.ts", DEEP],
    ["**/d/**/d/**/d/**/d/**/*.ts", DEEP],
  ])(
    "%s on a path 2000 folders deep finishes, unmatched",
    async (glob, path) => {
      expect(
        await callWithDeadline("src/pipeline/guidelines/match-glob.ts", "matchGlob", [[glob, path]], DEADLINE_MS),
      ).toEqual({ value: false });
    },
    2 * DEADLINE_MS,
  );
});
