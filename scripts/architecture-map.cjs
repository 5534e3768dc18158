// The map of src/: every folder (and loose file) on its floor, what it holds and what it may import.
// One source for three readers: .dependency-cruiser.cjs turns each row into a rule (`npm test` fails on an
// import the row does not allow), scripts/write-architecture-map.mjs writes the table in
// docs/architecture.md from it, and test/docs/architecture-map.test.ts checks that the table there is this
// one, that every folder of src/ is on it, that every allowed import points to a lower floor and that every
// allowed import is one the code makes.
//
// Floors run from the top (1: what starts the app) to the bottom (the leaves, which import nothing of the
// app). A row may import only rows on lower floors; rows on one floor never import each other.

/** @typedef {{ path: string, holds: string, imports: string[] }} Room */
/** @type {{ floor: number, name: string, rooms: Room[] }[]} */
const FLOORS = [
  {
    floor: 1,
    name: "start",
    rooms: [
      {
        path: "src/index.ts",
        holds: "bootstrap: config, logger, stop signals; calls the wiring",
        imports: ["src/wiring/", "src/config/", "src/logging/", "src/system/"],
      },
    ],
  },
  {
    floor: 2,
    name: "composition root",
    rooms: [
      {
        path: "src/wiring/",
        holds:
          "the one place that builds the app: `start-server.ts` in named phases (store, metrics and refusals, HTTP and setup, intake, workers, stop); the workers (`start-workers.ts`) and ROLE=all's worker child process; the agent pool",
        imports: ["*"],
      },
    ],
  },
  {
    floor: 3,
    name: "the app's webhooks",
    rooms: [
      {
        path: "src/app.ts",
        holds: "the Probot app: which webhook events go to which handler",
        imports: ["src/server/", "src/webhooks/", "src/intake/"],
      },
    ],
  },
  {
    floor: 4,
    name: "faces",
    rooms: [
      {
        path: "src/server/",
        holds:
          "the HTTP server's parts: `webhook/` (body limits, the delivery path, refused and invalid deliveries, the webhook proxy), `setup/` (the GitHub App setup flow), `health/` (health and readiness), the request log",
        imports: ["src/intake/", "src/refusals/", "src/config/", "src/domain/", "src/logging/"],
      },
      {
        path: "src/web/",
        holds:
          "the run view: `auth/` (sign-in with GitHub, sessions, who may read which repository), `queries/` (one per page, a fixed number of statements), `pages/` (server-rendered HTML), `views/`, and the router the wiring mounts; it shows, never acts",
        imports: ["src/github/", "src/db/", "src/config/", "src/domain/", "src/text/", "src/logging/"],
      },
      {
        path: "src/doctor/",
        holds:
          "`npm run doctor`: checks an install (database, GitHub App, webhook, agents and their keys) before it takes work",
        imports: ["src/agents/", "src/github/", "src/db/", "src/config/", "src/logging/"],
      },
      {
        path: "src/backtest/",
        holds:
          "`npm run backtest`: the review job replayed on a clone's history through `src/pipeline/index.ts`, by stage (`cli/`, `prs/`, `clone/`, `configurations/`, `replay/`, `judge/`, `score/`)",
        imports: [
          "src/pipeline/",
          "src/agents/",
          "src/checks/",
          "src/github/",
          "src/git/",
          "src/refusals/",
          "src/db/",
          "src/config/",
          "src/domain/",
          "src/text/",
          "src/logging/",
          "src/system/",
        ],
      },
    ],
  },
  {
    floor: 5,
    name: "webhook handlers",
    rooms: [
      {
        path: "src/webhooks/",
        holds: "events → payload shape checks → an intake record (never GitHub, never an agent)",
        imports: ["src/intake/", "src/domain/"],
      },
    ],
  },
  {
    floor: 6,
    name: "intake",
    rooms: [
      {
        path: "src/intake/",
        holds: "the delivery journal, the intake loop and its appliers, the failed-delivery sweep",
        imports: [
          "src/queue/",
          "src/github/",
          "src/refusals/",
          "src/metrics/",
          "src/db/",
          "src/domain/",
          "src/system/",
        ],
      },
    ],
  },
  {
    floor: 7,
    name: "work",
    rooms: [
      {
        path: "src/queue/",
        holds: "pg-boss: queues and their names, the job-row SQL the intake writes, the workers' heartbeat registry",
        imports: ["src/db/", "src/domain/", "src/system/"],
      },
      {
        path: "src/pipeline/",
        holds:
          "what a worker does, in rooms (see \"The pipeline's rooms\"): the run's job and the command job; the wiring, backtest and benchmarks use only its face, `index.ts`",
        imports: [
          "src/agents/",
          "src/checks/",
          "src/github/",
          "src/git/",
          "src/refusals/",
          "src/metrics/",
          "src/db/",
          "src/config/",
          "src/domain/",
          "src/text/",
        ],
      },
    ],
  },
  {
    floor: 8,
    name: "running the PR's code",
    rooms: [
      {
        path: "src/checks/",
        holds:
          "the repository's checks and reproducers in the sandbox: the command runner, the setup cache, the egress proxy",
        imports: ["src/agents/", "src/domain/"],
      },
      {
        path: "src/refusals/",
        holds:
          "`Refusals.refuse`, the one place a refusal is recorded: `refusals_total` and the `refusals` row together, redacted",
        imports: ["src/metrics/", "src/db/", "src/logging/"],
      },
    ],
  },
  {
    floor: 9,
    name: "edges",
    rooms: [
      {
        path: "src/agents/",
        holds:
          "the agent contract at its top, one folder per CLI (`claude/`, `codex/`, `gemini/`, `opencode/`, `fake/`), the sandbox and its model proxy, process spawning",
        imports: ["src/git/", "src/config/", "src/domain/", "src/system/"],
      },
      {
        path: "src/metrics/",
        holds:
          "Prometheus: the metrics, their endpoint, request counting (webhooks and GitHub), the gauges read from the database",
        imports: ["src/db/", "src/config/", "src/domain/"],
      },
    ],
  },
  {
    floor: 10,
    name: "stores and clients",
    rooms: [
      {
        path: "src/github/",
        holds: "our GitHub client (Octokit inside, constructed only by the wiring), diff → line placement",
        imports: ["src/domain/", "src/logging/"],
      },
      {
        path: "src/git/",
        holds: "the per-run workspace: git commands through the launcher, bounded diffs, tree checks",
        imports: ["src/config/", "src/system/"],
      },
      {
        path: "src/db/",
        holds: "schema, the two database kinds (PostgreSQL, embedded PGlite in `embedded/`), queries per table",
        imports: ["src/config/", "src/domain/", "src/logging/", "src/system/"],
      },
    ],
  },
  {
    floor: 11,
    name: "settings",
    rooms: [
      {
        path: "src/config/",
        holds:
          "settings parsed once with zod: `env/` (the operator's environment) and `repo/` (the repository's `.github/no-mistakes.yml`, its layers and the linear-time pattern engine)",
        imports: ["src/domain/"],
      },
    ],
  },
  {
    floor: 12,
    name: "leaves",
    rooms: [
      {
        path: "src/domain/",
        holds:
          "the words every layer shares: roles, commands and their parsers, finding ids, job payloads, the pull request and its mapper, the check's name",
        imports: [],
      },
      {
        path: "src/text/",
        holds:
          "text the app did not write made inert wherever it goes (Markdown, commit messages, prompt blocks), and the labels every surface shares",
        imports: [],
      },
      {
        path: "src/logging/",
        holds: "pino with redaction (secrets by key, value and shape; cookies and credential query values)",
        imports: [],
      },
      {
        path: "src/system/",
        holds:
          "the operating system's side: process identity and liveness, the process launcher, stop signals, background priority",
        imports: [],
      },
      {
        path: "src/version.ts",
        holds: "the app's version",
        imports: [],
      },
    ],
  },
];

/** Every room, with its floor. */
const ROOMS = FLOORS.flatMap(({ floor, rooms }) => rooms.map((room) => ({ ...room, floor })));

/**
 * The pipeline's rooms, highest first: a room imports only the rooms it lists (all of them lower), and its list
 * is what the code imports (a test checks both ways). The job
 * entry (src/pipeline/*.ts and the face, index.ts) sits above them all and may import every room.
 * @type {{ room: string, holds: string, imports: string[] }[]}
 */
const PIPELINE_ROOMS = [
  {
    room: "review",
    holds:
      "the review job as a step list (`run-review.ts`) and its steps, the skip rules, the reviewer's prompt and answer, running its reproducers, the second opinion",
    imports: ["publish", "render", "ledger", "guidelines", "checks", "workspace", "job", "sessions"],
  },
  {
    room: "fix",
    holds:
      "the fix job as a step list (`run-fix.ts`) and its steps, the gate before a push, the fixer's and verifier's prompts and answers",
    imports: ["publish", "render", "guidelines", "checks", "workspace", "job", "sessions"],
  },
  {
    room: "conversation",
    holds: "thread arguments, `ask`, reactions that confirm a ruling",
    imports: ["publish", "ledger", "workspace", "job", "sessions"],
  },
  {
    room: "command",
    holds:
      "the command job: a `/no-mistakes` comment or a review-thread reply answered at once (help, status, config, learn, dismiss, pause…), agent work handed to the run's queue",
    imports: ["publish", "ledger", "job", "sessions"],
  },
  {
    room: "publish",
    holds:
      "review, summary comment, check run, replies, thread resolution — each found by its marker before it is written",
    imports: ["render", "sessions"],
  },
  {
    room: "render",
    holds:
      "the Markdown the bot writes: summary, check output, finding comments, reproductions (untrusted text through src/text)",
    imports: ["ledger"],
  },
  {
    room: "guidelines",
    holds:
      "the maintainers' rule files from the base commit, chosen for the changed paths, fitted to a budget, rendered for the prompts",
    imports: ["workspace"],
  },
  {
    room: "ledger",
    holds:
      "reconciliation, raise-or-note, resolution evidence, renames followed, fingerprints, rulings, standing, blocking counts",
    imports: ["workspace"],
  },
  {
    room: "checks",
    holds:
      "the repository's checks and reproducers for a run: the head prepared once, each reproducer run, the outcomes kept",
    imports: ["job"],
  },
  {
    room: "workspace",
    holds: "preparing the run's checkout, the PR's own changes, changed lines, diff limits, prompt tags",
    imports: [],
  },
  {
    room: "job",
    holds:
      "`PipelineDeps` (what the wiring hands every job), `RunContext`, `repoRef`, reading the repository's config, failure classification",
    imports: ["sessions"],
  },
  {
    room: "sessions",
    holds: "`RunSessions` and what it grows: session sizes, budgets, digests, spend",
    imports: [],
  },
];

/** A short name for a path in the tables: `src/agents/` → `agents`, `src/app.ts` → `app.ts`. */
const short = (path) => path.replace(/^src\//, "").replace(/\/$/, "");

/** The two Markdown tables docs/architecture.md carries, as `npm run map` writes them. */
function renderTables() {
  const folders = [
    "| floor | folder | holds | may import |",
    "| --- | --- | --- | --- |",
    ...ROOMS.map(
      ({ floor, path, holds, imports }) =>
        `| ${floor} | \`${path}\` | ${holds} | ${imports.includes("*") ? "everything" : imports.length ? imports.map(short).join(", ") : "nothing of the app"} |`,
    ),
  ].join("\n");
  const rooms = [
    "| room | holds | may import |",
    "| --- | --- | --- |",
    "| `src/pipeline/*.ts` | the job entry (`processRun`, job-failure reporting, the watched GitHub client) and the face, `index.ts` | every room |",
    ...PIPELINE_ROOMS.map(
      ({ room, holds, imports }) =>
        `| \`${room}/\` | ${holds} | ${imports.length ? imports.join(", ") : "nothing of the pipeline"} |`,
    ),
  ].join("\n");
  return { folders, rooms };
}

module.exports = { FLOORS, ROOMS, PIPELINE_ROOMS, renderTables };
