// The allowed direction of imports, checked by `npm test` (`npm run deps`). The folders' floors and what each
// may import come from scripts/architecture-map.cjs, the same table docs/architecture.md shows ("Folders");
// the pipeline's rooms are below (docs/architecture.md, "The pipeline's rooms").
const { ROOMS: FOLDERS, PIPELINE_ROOMS } = require("./scripts/architecture-map.cjs");

const pathPattern = (path) => (path.endsWith("/") ? `^${path}` : `^${path.replace(/\./g, "\\.")}$`);

// One rule per row of the map: a folder imports only itself and what its row allows.
const folderRules = FOLDERS.filter(({ imports }) => !imports.includes("*")).map(({ path, imports, floor }) => ({
  name: `map-${path
    .replace(/^src\//, "")
    .replace(/\/$/, "")
    .replace(/\./g, "-")}`,
  comment: imports.length
    ? `${path} (floor ${floor}) imports only ${imports.join(", ")}.`
    : `${path} (floor ${floor}) is a leaf: it imports nothing of the app.`,
  severity: "error",
  from: { path: pathPattern(path) },
  to: { path: "^src/", pathNot: [path, ...imports].map(pathPattern) },
}));

// The pipeline's rooms: a room imports only the rooms below it. The job entry (src/pipeline/*.ts) sits above
// them all.
const roomRules = PIPELINE_ROOMS.map(({ room, imports: below }) => ({
  name: `pipeline-room-${room}`,
  comment: below.length
    ? `src/pipeline/${room} imports only the rooms below it: ${below.join(", ")}.`
    : `src/pipeline/${room} imports no other part of the pipeline.`,
  severity: "error",
  from: { path: `^src/pipeline/${room}/` },
  to: { path: "^src/pipeline/", pathNot: `^src/pipeline/(${[room, ...below].join("|")})/` },
}));

module.exports = {
  forbidden: [
    ...folderRules,
    ...roomRules,
    {
      name: "no-circular",
      comment:
        "No import circle anywhere in src/, type-only imports included: every module can be read after the ones it imports.",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "pipeline-has-one-face",
      comment:
        "Outside the pipeline (the wiring, the backtest, the benchmarks) only src/pipeline/index.ts is imported: the rooms are the pipeline's own business.",
      severity: "error",
      from: { path: "^(src|bench)/", pathNot: "^src/pipeline/" },
      to: { path: "^src/pipeline/", pathNot: "^src/pipeline/index\\.ts$" },
    },
    {
      name: "pipeline-uses-edges-not-drivers",
      comment:
        "The pipeline talks to GitHub, processes and the database through src/github, src/agents, src/git and src/db.",
      severity: "error",
      from: { path: "^src/pipeline/" },
      to: { path: ["(^|/)node_modules/(octokit|@octokit|probot|postgres|pg-boss|@electric-sql)/", "^child_process$"] },
    },
    {
      name: "web-shows-never-acts",
      comment:
        "src/web (the run view) reads the database and asks GitHub, with the person's own token, what they may read: it never queues a job or builds an Octokit client itself.",
      severity: "error",
      from: { path: "^src/web/" },
      to: { path: "(^|/)node_modules/(pg-boss|@octokit|probot)/" },
    },
    {
      name: "refusals-written-in-one-place",
      comment:
        "Only src/refusals writes the refusals table (with the metric, redacted): nothing else imports its queries.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/(refusals|db)/" },
      to: { path: "^src/db/refusals\\.ts$" },
    },
    {
      name: "concrete-clients-only-in-the-wiring",
      comment:
        "The pipeline and commands get a GitHubClient handed to them; only the wiring constructs the Octokit one.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/(wiring|github)/" },
      to: { path: "^src/github/octokit-github-client\\.ts$" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
