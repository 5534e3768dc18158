import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { locateJsonError } from "../../../src/backtest/prs/locate-json-error.js";
import { readJsonFile } from "../../../src/backtest/prs/read-json-file.js";
import { runBacktest } from "../../../src/backtest/run-backtest.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";
import { baseEnv, GOLDEN_FIXTURE, options } from "../backtest-world.js";

afterAll(() => removeTempDirs());

const benchmark = readFileSync(GOLDEN_FIXTURE, "utf8");

describe("readJsonFile", () => {
  it.each([
    // [what, text, line:column, expected, found]
    [
      "a benchmark file cut mid-comment",
      benchmark.slice(0, benchmark.indexOf("without checking")),
      "7:52",
      `'"' closing the string`,
      "the end of the file",
    ],
    [
      "a benchmark file cut between entries",
      benchmark.slice(0, benchmark.indexOf("},\n  {") + 2),
      "10:5",
      "a value (object, array, string, number, true, false or null)",
      "the end of the file",
    ],
    [
      "a benchmark file without its closing ]",
      benchmark.trimEnd().slice(0, -1),
      "29:1",
      "',' or ']'",
      "the end of the file",
    ],
    ["an empty file", "", "1:1", "a value (object, array, string, number, true, false or null)", "the end of the file"],
    [
      "a trailing comma in an array",
      '[{"url": "x", "comments": []},\n]',
      "2:1",
      "a value (object, array, string, number, true, false or null)",
      "']'",
    ],
    [
      "a trailing comma in an object",
      '[{"url": "x", "comments": [],\n}]',
      "2:1",
      "a property name in double quotes",
      "'}'",
    ],
    ["a missing comma", '[{"url": "x"\n  "comments": []}]', "2:3", "',' or '}'", `'"'`],
    ["a missing colon", '{"12" [{"comment": "x"}]}', "1:7", "':' after the property name", "'['"],
    ["a property name without quotes", "[{url: 1}]", "1:3", "a property name in double quotes or '}'", "'u'"],
    ["single quotes", "[{'url': 1}]", "1:3", "a property name in double quotes or '}'", `"'"`],
    [
      "a raw line break in a string",
      '[{"comment": "two\nlines"}]',
      "1:18",
      "'\"' closing the string (a line break in a string must be written \\n)",
      '"\\n"',
    ],
    ["a bad escape", '["C:\\temp\\x"]', "1:11", 'an escape (one of " \\ / b f n r t u)', "'x'"],
    ["a short \\u escape", '["\\u12"]', "1:7", "four hex digits after \\u", `'"'`],
    ["a cut-off literal", '[{"line": nul', "1:14", "the rest of 'null'", "the end of the file"],
    ["a number without digits after the point", '[{"line": 3.}]', "1:13", "a digit after the decimal point", "'}'"],
    ["two values", "[]\n[]", "2:1", "the end of the file (one JSON value per file)", "'['"],
  ])(
    "%s: names the file, the line and column, what was expected and what was found",
    async (_what, text, at, expected, found) => {
      const path = join(tempDir("nm-json-"), "golden.json");
      writeFileSync(path, text);
      const error = await readJsonFile(path).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error?.message).toMatch(
        new RegExp(`^${escape(path)}:${at}: not valid JSON \\(character \\d+\\): expected `),
      );
      expect(error?.message).toContain(`: expected ${expected}, found ${found}`);
    },
  );

  it("reads what JSON.parse reads, a byte order mark included", async () => {
    const path = join(tempDir("nm-json-"), "golden.json");
    writeFileSync(path, `\uFEFF${benchmark}`);
    expect(await readJsonFile(path)).toEqual(JSON.parse(benchmark));
  });

  it("agrees with JSON.parse on every cut of a benchmark-shaped file and on odd but valid JSON", () => {
    const texts = [
      ...Array.from({ length: benchmark.length }, (_, n) => benchmark.slice(0, n)),
      ' {"a": [1, -0.5e+3, 2E-2, true, false, null, "\\u00e9\\n\\"", {}, []]} ',
      '"\\ud83d\\ude00"',
      "-0",
    ];
    for (const text of texts) {
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
      }
      expect([text, locateJsonError(text) === undefined]).toEqual([text, parses]);
    }
  });
});

describe("a backtest given a golden or pairs file that is not JSON", () => {
  it.each(["golden", "pairs"] as const)("says which %s file, where and what was expected", async (which) => {
    const root = tempDir("nm-json-");
    const path = join(root, `${which}.json`);
    writeFileSync(path, benchmark.slice(0, benchmark.indexOf("without checking")));
    const opts = options(join(root, "clone"), join(root, "out"), [{ label: "A", env: {} }], { [which]: path });
    await expect(runBacktest(opts, { env: baseEnv(), print: () => {}, progress: () => {} })).rejects.toThrow(
      `${path}:7:52: not valid JSON (character 253): expected '"' closing the string, found the end of the file`,
    );
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
