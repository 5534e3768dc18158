// The allowed direction of imports (docs/architecture.md, "Folders"), checked by `npm test`.
// Work flows webhook → intake → queue → pipeline → edges; nothing below points back up.
const FLOW = "^src/(app\\.ts|index\\.ts|wiring|server|webhooks|intake|queue|commands|pipeline)(/|$)";

// The pipeline's rooms, lowest first (docs/architecture.md, "The pipeline's rooms"): a room imports only
// the rooms below it in the flow. The job entry (src/pipeline/*.ts) sits above them all.
const ROOMS = {
  sessions: [],
  job: ["sessions"],
  workspace: ["job", "sessions"],
  guidelines: ["job", "sessions", "workspace"],
  ledger: ["job", "sessions", "workspace"],
  checks: ["job", "sessions", "workspace"],
  render: ["job", "sessions", "workspace", "ledger"],
  publish: ["job", "sessions", "workspace", "ledger", "render"],
  review: ["job", "sessions", "workspace", "guidelines", "ledger", "checks", "render", "publish"],
  fix: ["job", "sessions", "workspace", "guidelines", "ledger", "checks", "render", "publish"],
  conversation: ["job", "sessions", "workspace", "ledger", "render", "publish"],
  command: ["job", "sessions", "workspace", "ledger", "render", "publish"],
};
const roomRules = Object.entries(ROOMS).map(([room, below]) => ({
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
      name: "refusals-below-the-flow",
      comment:
        "src/refusals records what the app refused (refusals_total and the refusals row, in one call): every part of the flow calls it; it calls none of them.",
      severity: "error",
      from: { path: "^src/refusals/" },
      to: { path: [FLOW, "^src/(agents|github|git|web|backtest)(/|$)"] },
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
      name: "edges-import-no-flow",
      comment: "agents, github, git and checks are edges: the pipeline calls them, never the other way round.",
      severity: "error",
      from: { path: "^src/(agents|github|git|checks)/" },
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
      comment:
        "The pipeline does not reach up into the wiring, server, webhooks, intake, queue or commands: what it shares with them lives in src/domain.",
      severity: "error",
      from: { path: "^src/pipeline/" },
      to: { path: "^src/(app\\.ts|index\\.ts|wiring|server|webhooks|intake|queue|commands)(/|$)" },
    },
    {
      name: "queue-knows-jobs-not-work",
      comment: "src/queue knows pg-boss and the job shapes (src/domain), nothing of what a job does.",
      severity: "error",
      from: { path: "^src/queue/" },
      to: {
        path: ["^src/(app\\.ts|index\\.ts|wiring|server|webhooks|intake|commands|pipeline|agents|github|git)(/|$)"],
      },
    },
    {
      name: "commands-below-the-edges-of-the-server",
      comment:
        "Command handling is called by the workers and the webhooks; it never reaches up to them or to the queue's internals.",
      severity: "error",
      from: { path: "^src/commands/" },
      to: { path: "^src/(app\\.ts|index\\.ts|wiring|server|webhooks|intake|queue)(/|$)" },
    },
    {
      name: "one-composition-root",
      comment:
        "Only src/wiring builds the app (clients, workspaces, agents, queues, workers); index.ts starts it. Nothing else imports the wiring.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/(wiring/|index\\.ts$)" },
      to: { path: "^src/wiring/" },
    },
    {
      name: "concrete-clients-only-in-the-wiring",
      comment:
        "The pipeline and commands get a GitHubClient handed to them; only the wiring constructs the Octokit one.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/(wiring|github)/" },
      to: { path: "^src/github/octokit-github-client\\.ts$" },
    },
    {
      name: "web-shows-never-acts",
      comment:
        "src/web (the run view) reads the database and asks GitHub, with the person's own token, what they may read: it never runs a job, an agent or git, and shares with the pipeline only src/text (the rules for untrusted text and the labels, the same words as on GitHub).",
      severity: "error",
      from: { path: "^src/web/" },
      to: {
        path: [
          "^src/(app\\.ts|index\\.ts|wiring|server|webhooks|intake|queue|commands|agents|git|backtest)(/|$)",
          "^src/pipeline/",
          "(^|/)node_modules/(pg-boss|@octokit|probot)/",
        ],
      },
    },
    {
      name: "web-only-from-the-wiring",
      comment: "The run view is mounted by the wiring; nothing else imports it.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/(wiring|web)/" },
      to: { path: "^src/web/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
