/** What a repository's top-level files say about how to set it up and test it. */
export interface RepositoryFiles {
  /** The paths at the repository's root. */
  root: readonly string[];
  /** package.json, pyproject.toml, Makefile…, read from the same commit (undefined when absent). */
  read: (path: string) => string | undefined;
}

interface Proposal {
  setup: string[];
  commands: { name: string; run: string }[];
  /** The files it was read from. */
  basis: string[];
}

/**
 * A `checks` block to propose when none is configured: read from package.json scripts and lockfile,
 * pyproject/pytest, go.mod, Cargo.toml or a Makefile's `test` target. The app runs nothing of it until a
 * maintainer puts it in `.github/no-mistakes.yml` on the default branch.
 */
export function proposeChecks(files: RepositoryFiles): string | undefined {
  const p: Proposal = { setup: [], commands: [], basis: [] };
  proposeNode(files, p);
  proposePython(files, p);
  proposeGo(files, p);
  proposeRust(files, p);
  if (p.commands.length === 0) proposeMake(files, p);
  if (p.commands.length === 0) return undefined;
  const lines = ["checks:"];
  if (p.setup.length > 0) lines.push("  setup:", ...p.setup.map((run) => `    - run: ${yamlText(run)}`));
  lines.push("  commands:", ...p.commands.map((c) => `    - { name: ${yamlText(c.name)}, run: ${yamlText(c.run)} }`));
  return lines.join("\n");
}

function proposeNode(files: RepositoryFiles, p: Proposal): void {
  const text = files.read("package.json");
  if (text === undefined) return;
  let scripts: Record<string, unknown> = {};
  try {
    scripts = ((JSON.parse(text) as { scripts?: Record<string, unknown> }).scripts ?? {}) as Record<string, unknown>;
  } catch {
    return;
  }
  p.basis.push("package.json");
  const has = (name: string) => files.root.includes(name);
  const [pm, install] = has("pnpm-lock.yaml")
    ? ["pnpm", "pnpm install --frozen-lockfile"]
    : has("yarn.lock")
      ? ["yarn", "yarn install --frozen-lockfile"]
      : ["npm", has("package-lock.json") || has("npm-shrinkwrap.json") ? "npm ci" : "npm install"];
  p.setup.push(install);
  for (const name of ["test", "lint", "typecheck", "type-check", "check"])
    if (typeof scripts[name] === "string" && !/no test specified/.test(scripts[name] as string))
      p.commands.push({ name, run: pm === "npm" ? `npm run ${name}` : `${pm} run ${name}` });
}

function proposePython(files: RepositoryFiles, p: Proposal): void {
  const pyproject = files.read("pyproject.toml");
  const requirements = files.root.find((f) => /^requirements(-dev|-test)?\.txt$/.test(f));
  if (pyproject === undefined && requirements === undefined && !files.root.includes("setup.py")) return;
  p.basis.push(pyproject !== undefined ? "pyproject.toml" : (requirements ?? "setup.py"));
  p.setup.push("python3 -m venv .venv");
  if (requirements) p.setup.push(`.venv/bin/pip install -r ${requirements}`);
  else p.setup.push(".venv/bin/pip install -e .");
  const pytest =
    /pytest/.test(pyproject ?? "") || files.root.includes("pytest.ini") || files.root.includes("conftest.py");
  p.commands.push(
    pytest
      ? { name: "tests", run: ".venv/bin/python -m pytest -q" }
      : { name: "tests", run: ".venv/bin/python -m unittest" },
  );
}

function proposeGo(files: RepositoryFiles, p: Proposal): void {
  if (!files.root.includes("go.mod")) return;
  p.basis.push("go.mod");
  p.setup.push("go mod download");
  p.commands.push({ name: "tests", run: "go test ./..." }, { name: "vet", run: "go vet ./..." });
}

function proposeRust(files: RepositoryFiles, p: Proposal): void {
  if (!files.root.includes("Cargo.toml")) return;
  p.basis.push("Cargo.toml");
  p.setup.push("cargo fetch");
  p.commands.push({ name: "tests", run: "cargo test --offline" });
}

function proposeMake(files: RepositoryFiles, p: Proposal): void {
  const makefile = files.read("Makefile");
  if (makefile === undefined || !/^test\s*:/m.test(makefile)) return;
  p.basis.push("Makefile");
  p.commands.push({ name: "tests", run: "make test" });
}

/** A YAML scalar for a command: plain when that reads back the same, else double-quoted. */
function yamlText(text: string): string {
  return /^[A-Za-z0-9._/ -]+$/.test(text) && !/^[-?:]|: | #|^\s|\s$/.test(text) ? text : JSON.stringify(text);
}
