import { describe, expect, it } from "vitest";
import { runtimeInstructions } from "../helpers/dockerfile.js";

/** The packages the runtime stage installs with apt-get, every RUN of it. */
function aptPackages(instructions: string[]): string[] {
  return instructions
    .filter((l) => /^RUN\s/i.test(l))
    .flatMap((l) => [...l.matchAll(/apt-get install\s+((?:[^&;|]+))/g)].map((m) => m[1]!))
    .flatMap((args) => args.split(/\s+/).filter((a) => a !== "" && !a.startsWith("-")));
}

describe("the runtime image's toolchains for a repository's checks", () => {
  const instructions = runtimeInstructions();

  it("is built on a Node image (node and npm for Node projects' setup, tests and reproducers)", () => {
    expect(instructions[0]).toMatch(/^FROM\s+node:\d+(-[a-z]+)*(\s|$)/i);
  });

  it("installs Python 3 with venv and pip (Python projects' setup, tests and reproducers)", () => {
    expect(aptPackages(instructions)).toEqual(expect.arrayContaining(["python3", "python3-venv", "python3-pip"]));
  });

  it("still installs the sandbox the checks run in", () => {
    expect(aptPackages(instructions)).toEqual(expect.arrayContaining(["bubblewrap", "socat", "git"]));
  });

  it("reads apt-get's package list as it is written (the parse can fail)", () => {
    expect(
      aptPackages(["RUN apt-get update && apt-get install -y --no-install-recommends git tini && rm -rf x"]),
    ).toEqual(["git", "tini"]);
    expect(aptPackages(["RUN echo apt-get"])).toEqual([]);
  });
});
