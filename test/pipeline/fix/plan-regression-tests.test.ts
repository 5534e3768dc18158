import { describe, expect, it } from "vitest";
import type { Finding, Reproducer } from "../../../src/db/schema.js";
import { planRegressionTests, type TreeAt } from "../../../src/pipeline/fix/add-regression-tests.js";

const TEST = "test('x', () => {});\n";
const finding = (number: number, files: Reproducer["files"]) =>
  ({ number, reproducer: { files, command: "node --test" } }) as Finding;
const TREE: TreeAt = {
  files: new Map<string, string | undefined>([
    ["lib.js", undefined],
    ["test/same.test.js", TEST],
    ["test/other.test.js", "something else\n"],
    ["notes", undefined],
    ["pkg/a/b.js", undefined],
  ]),
  links: new Set(["vendor", "docs/link"]),
};

describe("planRegressionTests: the reproducers' files the app adds to the fix, and those it leaves out", () => {
  it.each<[string, Reproducer["files"], string[], string[]]>([
    ["a new test file is added", [{ path: "repro/last.test.js", content: TEST }], ["repro/last.test.js"], []],
    [
      "its path is cleaned as the gate wrote it",
      [{ path: "./repro//a.test.js", content: TEST }],
      ["repro/a.test.js"],
      [],
    ],
    ["a file the tree already holds as it is: nothing to add", [{ path: "test/same.test.js", content: TEST }], [], []],
    [
      "in place of a file of the repository",
      [{ path: "test/other.test.js", content: TEST }],
      [],
      ["test/other.test.js: it would replace a file of the repository"],
    ],
    [
      "a workflow file (any case)",
      [{ path: ".GitHub/Workflows/ci.yml", content: "on: push\n" }],
      [],
      [".GitHub/Workflows/ci.yml: a workflow file"],
    ],
    ["inside .git", [{ path: "a/.Git/hooks/pre-commit", content: "x" }], [], ["a/.Git/hooks/pre-commit: inside .git"]],
    [
      "out of the tree",
      [{ path: "../outside.js", content: "x" }],
      [],
      ["../outside.js: not a path inside the repository"],
    ],
    ["absolute", [{ path: "/etc/cron.d/x", content: "x" }], [], ["/etc/cron.d/x: not a path inside the repository"]],
    [
      "through a link of the tree",
      [{ path: "vendor/x.test.js", content: TEST }],
      [],
      ["vendor/x.test.js: a symbolic link is in its way"],
    ],
    [
      "onto a link of the tree",
      [{ path: "docs/link", content: TEST }],
      [],
      ["docs/link: a symbolic link is in its way"],
    ],
    [
      "below a file",
      [{ path: "notes/x.test.js", content: TEST }],
      [],
      ["notes/x.test.js: a file of the repository is in its way"],
    ],
    ["onto a folder", [{ path: "pkg/a", content: TEST }], [], ["pkg/a: a folder of the repository is there"]],
  ])("%s", (_name, files, add, leftOut) => {
    const plan = planRegressionTests([finding(1, files)], TREE);
    expect(plan.add.map((f) => f.path)).toEqual(add);
    expect(plan.leftOut.map((l) => `${l.path}: ${l.why}`)).toEqual(leftOut);
  });

  it("two reproducers naming one path: once when their contents agree, the second left out when they differ", () => {
    const same = planRegressionTests(
      [finding(1, [{ path: "r/a.test.js", content: TEST }]), finding(2, [{ path: "r/a.test.js", content: TEST }])],
      TREE,
    );
    expect(same.add.map((f) => [f.path, f.finding.number])).toEqual([["r/a.test.js", 1]]);
    expect(same.leftOut).toEqual([]);
    const differ = planRegressionTests(
      [finding(1, [{ path: "r/a.test.js", content: TEST }]), finding(2, [{ path: "r/a.test.js", content: "other" }])],
      TREE,
    );
    expect(differ.add.map((f) => f.path)).toEqual(["r/a.test.js"]);
    expect(differ.leftOut).toEqual([{ path: "r/a.test.js", why: "another reproducer adds it with other content" }]);
  });
});
