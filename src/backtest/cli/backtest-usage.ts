/** `npm run backtest -- --help`. */
export const BACKTEST_USAGE = `Usage: npm run backtest -- --repo <clone> [--golden <file>] [options]

Reviews pull requests of a local clone with the app's own pipeline (no GitHub needed) and scores the
findings against a golden file of real issues.

Which pull requests:
  --golden <file>        real issues per PR (the public benchmark's JSON as is, or your own in that shape);
                         without --merges or --pairs, its PRs are looked up in the clone; PRs it flags
                         (the benchmark's az_comment) are skipped, each listed with its flag
  --from-history         the golden file is the app's own record of this repository (--repo-name, else
                         the clone's origin): its merged PRs with findings the team decided on, the fixed
                         ones the real issues (dismissed or withdrawn: not issues); --limit: the newest n
  --history-database-url <url>  the app's database (default DATABASE_URL); or
  --history-pglite-dir <dir>    its embedded database's data directory (the app stopped)
  --merges               the merge commits of --branch (base = first parent, head = second parent)
  --limit <n>            with --merges or --from-history: the newest n
  --pairs <file>         [{ "base": "<rev>", "head": "<rev>", "pr": "<url or number>", "title": "…" }]
  --branch <ref>         history and config branch (default HEAD)
  --replay               review each PR's commits as pushes, one after another
  --max-pushes <n>       with --replay: the last n commits of each PR
  --accept-other-repos   look up PRs whose URL names another repository than the clone's remotes by
                         number anyway (default: they are skipped, each with a line)

Configurations (A is the team's; any --b-* option adds B, compared with A):
  --env KEY=VALUE        A's environment over this one's (AGENT, AGENT_MODEL, AGENT_ARGS, AGENT_SANDBOX, …)
  --agent <name>         A's AGENT (claude, codex, fake);   --model <id>  A's AGENT_MODEL
  --config <file>        A's .github/no-mistakes.yml instead of the clone's
  --instructions <file>  extra reviewer instructions for A, appended to its config's review.instructions
                         (a prompt variant: the reviewer reads them where it reads the team's own)
  --label <name>         A's name in the report (default A)
  --b-env, --b-agent, --b-model, --b-config, --b-instructions, --b-label
                         the same for B (B starts from A's environment, config and instructions)

Scoring:
  --match judge|location judge (default): the configured agent asks whether a finding and a real issue are
                         the same (cached); location: same path within --line-tolerance lines (no agent call)
  --judge-env KEY=VALUE  the judge's environment over A's (e.g. --judge-env AGENT_MODEL=…)
  --line-tolerance <n>   default 5
  --resamples <n>        bootstrap resamples for the A/B interval (default 1000);  --seed <n> (default 1)

Running:
  --out <dir>            output, state and caches (default ./backtest-out); a rerun resumes from it
  --max-spend <usd>      stop once this much was spent (reviews and judge, over every run with this --out,
                         reviews set aside included), before the next review or the next judging of a
                         stored review (judging answered from the cache goes on)
  --repo-name <o/r>      owner/repo the runs carry (default: the golden file's, else backtest/<folder>)
  --database-url <url>   a PostgreSQL of the backtest's own (default: an embedded PGlite under --out;
                         BACKTEST_DATABASE_URL also works; never the app's DATABASE_URL)
  --verbose              the app's log lines on stderr

Exit status: 0 every PR reviewed and scored; 1 a mistake (said on stderr); 2 a review or its judging
failed (a rerun tries it again); 3 stopped early by --max-spend or Ctrl-C (a rerun goes on).
`;
