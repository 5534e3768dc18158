// The allowed direction of imports (docs/architecture.md, "Folders"), checked by `npm test`.
// Work flows webhook → intake → queue → pipeline → edges; nothing below points back up.
const FLOW = "^src/(app\\.ts|index\\.ts|server|webhooks|intake|queue|commands|pipeline)(/|$)";

module.exports = {
  forbidden: [
    {
      name: "domain-stands-alone",
      comment: "src/domain holds the words every layer shares; it imports nothing of the app.",
      severity: "error",
      from: { path: "^src/domain/" },
      to: { path: "^src/", pathNot: "^src/domain/" },
    },
    {
      name: "system-stands-alone",
      comment: "src/system wraps the operating system (process identity); it imports nothing of the app.",
      severity: "error",
      from: { path: "^src/system/" },
      to: { path: "^src/", pathNot: "^src/system/" },
    },
    {
      name: "db-imports-no-flow",
      comment: "src/db is the data layer: it knows tables and queries, not who uses them.",
      severity: "error",
      from: { path: "^src/db/" },
      to: { path: [FLOW, "^src/agents/"] },
    },
    {
      name: "edges-import-no-flow",
      comment: "agents, github and git are edges: the pipeline calls them, never the other way round.",
      severity: "error",
      from: { path: "^src/(agents|github|git)/" },
      to: { path: FLOW },
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
      name: "pipeline-not-above-itself",
      comment: "The pipeline does not reach up into the server, the webhooks or the intake.",
      severity: "error",
      from: { path: "^src/pipeline/" },
      to: { path: "^src/(app\\.ts|index\\.ts|server|webhooks|intake)(/|$)" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
