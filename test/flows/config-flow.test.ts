import { describe, expect, it } from "vitest";
import { FlowFixture, ONE_BUG, OWNER, PR_APP } from "../helpers/flow-fixture.js";
import { useFlowDatabase } from "../helpers/use-flow-database.js";

let fx: FlowFixture;
const database = useFlowDatabase(() => fx);

const READER = { login: "visitor" };
const ORG_FILE = `${OWNER}/.github:.github/no-mistakes.yml`;

async function start(standIn: Parameters<typeof FlowFixture.start>[1] = {}): Promise<void> {
  fx = await FlowFixture.start(database.handle, { permissions: { visitor: "read" }, ...standIn });
}

/** What the app POSTed as its answer to `/no-mistakes config` (the last comment on the PR). */
async function askConfig(): Promise<string> {
  await fx.comment("/no-mistakes config", READER);
  const posted = fx.github.sent("POST", `/issues/${fx.pr}/comments`);
  expect(posted.length).toBeGreaterThan(0);
  return posted.at(-1)!.body.body as string;
}

/** The reviewed head's check run. */
function checkRunOf(head: string) {
  return [...fx.github.checkRuns.values()].find((c) => c.head_sha === head)!;
}

describe("a broken config, on the check run of a reviewed head", () => {
  it("a wrong type at a nested key: reported with its line; that setting alone is left out", async () => {
    await start({ configYaml: "fix:\n  max_rounds: 1\nreview:\n  max_comments: 500\n  drafts: true\n" });
    const head = await fx.open({ "src/app.ts": PR_APP }, [{ role: "reviewer", answer: ONE_BUG }], "first");

    const check = checkRunOf(head);
    expect(check.output.summary).toContain("A config file on the default branch has a problem");
    expect(check.output.summary).toContain(
      ".github/no-mistakes.yml line 4: `review.max_comments`: Too big: expected number to be <=100",
    );
    // the rest of the file still applies
    await fx.comment("/no-mistakes status", READER);
    expect(fx.replies().at(-1)).toContain("fix rounds 0/1");
    const config = await askConfig();
    expect(config).toContain("  drafts: true # octo-org/widgets");
    expect(config).toContain("  max_comments: 20 # default");
  });

  it("a syntax error: reported with its line, the review runs on the defaults", async () => {
    await start({ configYaml: "review:\n  auto: true\n  fail_on: [error\n" });
    const head = await fx.open({ "src/app.ts": PR_APP }, [{ role: "reviewer", answer: ONE_BUG }], "first");

    expect(checkRunOf(head).output.summary).toMatch(
      /\.github\/no-mistakes\.yml line 4: not valid YAML, so none of this file is used: /,
    );
    expect(fx.github.sent("POST", `/pulls/${fx.pr}/reviews`)).toHaveLength(1);
  });
});

describe("a config problem is in the check run's title, not only its summary", () => {
  /** The last check run body (POST or PATCH) the app sent GitHub. */
  const lastCheckSent = () =>
    fx.github.requests.filter((r) => /\/check-runs(\/\d+)?$/.test(r.path) && r.method !== "GET").at(-1)!.body;

  it("a reviewed head with nothing open: neutral, not green, the title naming the problem; the summary lists the allowed values", async () => {
    await start({ configYaml: "review:\n  session: warm\n" });
    await fx.open({ "src/app.ts": PR_APP }, [{ role: "reviewer", answer: { summary: "Fine.", findings: [] } }]);
    const check = lastCheckSent();
    expect(check).toMatchObject({
      status: "completed",
      conclusion: "neutral",
      output: { title: "Converged · No open findings · 1 config problem in .github/no-mistakes.yml" },
    });
    expect(check.output.summary).toContain(
      ".github/no-mistakes.yml line 2: `review.session`: expected one of: resume, cold",
    );
  });

  it("a failing review still fails, with the problem in its title; a dismissal's new verdict keeps it", async () => {
    await start({ configYaml: "review:\n  fail_on: critical\n", permissions: { maintainer: "write" } });
    await fx.open({ "src/app.ts": PR_APP }, [{ role: "reviewer", answer: ONE_BUG }]);
    const check = lastCheckSent();
    expect(check).toMatchObject({
      conclusion: "failure",
      output: { title: "1 open finding (1 error) · 1 config problem in .github/no-mistakes.yml" },
    });
    expect(check.output.summary).toContain("`review.fail_on`: expected one of: error, warning, info, never");

    await fx.comment("/no-mistakes dismiss NM-1 not a bug", { login: "maintainer" });
    const after = lastCheckSent();
    expect(after).toMatchObject({
      conclusion: "neutral",
      output: { title: "Converged · No open findings · 1 config problem in .github/no-mistakes.yml" },
    });
    expect(after.output.summary).toContain("`review.fail_on`: expected one of: error, warning, info, never");
  });

  it("a skipped head: the title names the problem and its file (here the organisation's)", async () => {
    await start({
      configYaml: "ignore:\n  authors: [renovate-bot]\n",
      repoFiles: { [ORG_FILE]: "review:\n  session: warm\n" },
    });
    const head = fx.push({ "src/app.ts": PR_APP });
    await fx.pullRequest("opened", head, { author: "renovate-bot", sender: { login: "renovate-bot", type: "User" } });
    expect(fx.app.agentCalls()).toHaveLength(0);
    const check = lastCheckSent();
    expect(check).toMatchObject({
      conclusion: "neutral",
      output: { title: `Review skipped · 1 config problem in ${ORG_FILE}` },
    });
    expect(check.output.summary).toContain(`${ORG_FILE} line 2: \`review.session\`: expected one of: resume, cold`);
  });
});

describe("organisation defaults and _extends", () => {
  it("the owner's .github file applies under the repository's own; /no-mistakes config says where each setting came from", async () => {
    await start({
      configYaml: "review:\n  max_comments: 10\nignore:\n  title: ['[skip review]']\n",
      repoFiles: {
        [ORG_FILE]:
          "review:\n  max_comments: 5\n  fail_on: warning\nignore:\n  title: [WIP]\n  labels: [wip]\nfix:\n  max_rounds: 1\n",
      },
    });

    const reply = await askConfig();
    expect(fx.github.sent("GET", `/repos/${OWNER}/.github/contents/`)).toHaveLength(1);
    // whether the organisation's file may be shown is GitHub's answer: the repository is public
    expect(fx.github.sent("GET", new RegExp(`/repos/${OWNER}/\\.github$`))).toHaveLength(1);
    expect(reply).toMatch(/^@visitor \*\*no-mistakes config\*\* for `octo-org\/widgets`/);
    expect(reply).toContain(
      "Precedence, nearest first (a file's settings replace those below it; mappings merge key by key, lists replace): `octo-org/widgets` (this repository's `.github/no-mistakes.yml`) › `octo-org/.github` (organisation defaults) › defaults.",
    );
    expect(reply).toContain(
      [
        "review:",
        "  auto: true # default",
        "  drafts: false # default",
        "  bots: false # default",
        '  session: "resume" # default',
        "  max_comments: 10 # octo-org/widgets",
        '  fail_on: "warning" # octo-org/.github',
      ].join("\n"),
    );
    expect(reply).toContain("fix:\n  max_rounds: 1 # octo-org/.github\n  auto: false # default");
    expect(reply).toContain('  labels: # octo-org/.github\n    - "wip"');
    expect(reply).toContain('  title: # octo-org/widgets\n    - "[skip review]"\n'); // a list replaces
    expect(reply).toContain("\n```yaml\n");
    expect(reply).toContain("No problems in the config files.");

    // and a run uses it: the organisation's fix.max_rounds
    await fx.open({ "src/app.ts": PR_APP }, [{ role: "reviewer", answer: ONE_BUG }], "first");
    await fx.comment("/no-mistakes status", READER);
    expect(fx.replies().at(-1)).toContain("fix rounds 0/1");
  });

  it("a private organisation .github in a public repository: its settings apply, but the posted reply (and the check run) holds none of its values, names or text", async () => {
    await start({
      configYaml: "review:\n  drafts: true\n",
      repoFiles: {
        [ORG_FILE]: [
          "review:",
          "  session: cold",
          "  embargoed_knob: 1",
          "ignore:",
          "  title: ['[embargoed-title]']",
          "  labels: [embargoed-label]",
          "learnings:",
          "  path: docs/embargoed-learnings.md",
          "fix:",
          "  max_rounds: 1",
          "",
        ].join("\n"),
      },
      repoVisibility: { [`${OWNER}/.github`]: "private" },
    });

    const reply = await askConfig();

    expect(reply).not.toMatch(/embargoed|cold|octo-org\/\.github|organisation defaults/);
    expect(reply).toContain(
      "Precedence, nearest first (a file's settings replace those below it; mappings merge key by key, lists replace): `octo-org/widgets` (this repository's `.github/no-mistakes.yml`) › a private source (applied; not shown here) › defaults.",
    );
    expect(reply).toContain("Settings from a private source apply, but their values are not shown here");
    expect(reply).toContain("  drafts: true # octo-org/widgets");
    expect(reply).toContain("  session: # a private source (not shown)");
    expect(reply).toContain("  title: # a private source (not shown)\n");
    expect(reply).toContain("  max_rounds: # a private source (not shown)");
    expect(reply).toContain("  path: # a private source (not shown)");
    expect(reply).toContain(
      "- a config file in a private repository: a problem not shown here; someone who can read that repository will find it in its file",
    );
    // read with the installation's token, and asked of GitHub whether the repository is private
    expect(fx.github.sent("GET", `/repos/${OWNER}/.github/contents/`)).toHaveLength(1);
    expect(fx.github.sent("GET", new RegExp(`/repos/${OWNER}/\\.github$`))).toHaveLength(1);

    // applied all the same: a run of this PR uses the private file's fix.max_rounds, and its check run
    // counts the private file's problem without quoting it
    const head = await fx.open({ "src/app.ts": PR_APP }, [{ role: "reviewer", answer: ONE_BUG }], "first");
    await fx.comment("/no-mistakes status", READER);
    expect(fx.replies().at(-1)).toContain("fix rounds 0/1");
    const summary = JSON.stringify(checkRunOf(head).output);
    expect(summary).toContain("a config file in a private repository: a problem not shown here");
    expect(checkRunOf(head).output.title).toContain("1 config problem in a config file in a private repository");
    expect(summary).not.toMatch(/embargoed|octo-org\/\.github/);
  });

  it("a private organisation's ignore rule skips the PR without quoting its pattern on the check run", async () => {
    await start({
      configYaml: "review:\n  drafts: true\n",
      repoFiles: { [ORG_FILE]: "ignore:\n  head_branches: ['feat*-embargoed-glob*', 'feat*']\n" },
      repoVisibility: { [`${OWNER}/.github`]: "private" },
    });
    const head = await fx.open({ "src/app.ts": PR_APP }, [], "first");
    const check = checkRunOf(head);
    expect(check.output.title).toContain("Review skipped");
    expect(check.output.summary).toContain(
      "its head branch, `feature`, matches a pattern (set by a private source) in `ignore.head_branches`",
    );
    expect(JSON.stringify(check.output)).not.toContain("feat*");
  });

  it("_extends a private base (named in the repository's own file) that extends a public one: neither is shown, nor named", async () => {
    await start({
      configYaml: "_extends: private-config\nreview:\n  drafts: true\n",
      repoFiles: {
        [`${OWNER}/private-config:.github/no-mistakes.yml`]: "_extends: public-config\nreview:\n  session: cold\n",
        [`${OWNER}/public-config:.github/no-mistakes.yml`]: "fix:\n  max_rounds: 2\n",
      },
      repoVisibility: { [`${OWNER}/private-config`]: "private", [`${OWNER}/public-config`]: "public" },
    });

    const reply = await askConfig();

    // the public base is reached through the private file: what it names is that file's text
    expect(reply).not.toMatch(/public-config|cold|max_rounds: 2/);
    expect(reply).toContain("› a private source (applied; not shown here) › defaults.");
    expect(reply).toContain("  max_rounds: # a private source (not shown)");
    expect(reply).toContain("  drafts: true # octo-org/widgets");
    // GitHub was asked about the private base only: nothing after it can be shown anyway
    expect(fx.github.sent("GET", new RegExp(`/repos/${OWNER}/private-config$`))).toHaveLength(1);
    expect(fx.github.sent("GET", new RegExp(`/repos/${OWNER}/public-config$`))).toHaveLength(0);
  });

  it("no .github repository: silent, only the repository's own file and the defaults", async () => {
    await start({ configYaml: "review:\n  drafts: true\n" });
    const reply = await askConfig();
    expect(fx.github.sent("GET", `/repos/${OWNER}/.github/contents/`)).toHaveLength(1); // asked, 404
    expect(reply).toContain("  drafts: true # octo-org/widgets");
    expect(reply).toContain("No problems in the config files.");
  });

  it("_extends: other-repo names the base instead of the organisation's defaults", async () => {
    await start({
      configYaml: "_extends: review-config\nreview:\n  drafts: true\n",
      repoFiles: {
        [ORG_FILE]: "review:\n  bots: true\n",
        [`${OWNER}/review-config:.github/no-mistakes.yml`]: "review:\n  max_comments: 7\n  drafts: false\n",
      },
    });
    const reply = await askConfig();
    expect(reply).toContain(
      "`octo-org/widgets` (this repository's `.github/no-mistakes.yml`) › `octo-org/review-config` (`_extends`) › defaults.",
    );
    expect(reply).toContain("  drafts: true # octo-org/widgets");
    expect(reply).toContain("  bots: false # default"); // the organisation's file is not a base here
    expect(reply).toContain("  max_comments: 7 # octo-org/review-config");
    expect(fx.github.sent("GET", `/repos/${OWNER}/.github/contents/`)).toHaveLength(0);
  });

  it("a cycle of _extends is a problem with its line; each file is read once", async () => {
    await start({
      configYaml: "_extends: a\n",
      repoFiles: {
        [`${OWNER}/a:.github/no-mistakes.yml`]: "fix:\n  max_rounds: 2\n_extends: b\n",
        [`${OWNER}/b:.github/no-mistakes.yml`]: "# b\n_extends: octo-org/a\nreview:\n  drafts: true\n",
      },
    });
    const reply = await askConfig();
    expect(reply).toContain("**Problems (1)**");
    expect(reply).toContain(
      "- octo-org/b:.github/no-mistakes.yml line 2: `_extends`: a cycle (octo-org/widgets:.github/no-mistakes.yml → octo-org/a:.github/no-mistakes.yml → octo-org/b:.github/no-mistakes.yml → octo-org/a:.github/no-mistakes.yml); it is not read again",
    );
    expect(reply).toContain("  max_rounds: 2 # octo-org/a");
    expect(reply).toContain("  drafts: true # octo-org/b");
    expect(fx.github.sent("GET", `/repos/${OWNER}/a/contents/`)).toHaveLength(1);
  });

  it("a missing base is a problem line, not a crash; the repository's own file still applies", async () => {
    await start({ configYaml: "review:\n  drafts: true\n_extends: acme-shared/gone\n" });
    const reply = await askConfig();
    expect(reply).toContain(
      "- .github/no-mistakes.yml line 3: `_extends`: acme-shared/gone:.github/no-mistakes.yml was not found (or the app cannot read that repository)",
    );
    expect(reply).toContain("  drafts: true # octo-org/widgets");
    expect(fx.github.sent("GET", "/repos/acme-shared/gone/contents/")).toHaveLength(1);
  });

  it("a bad setting in the organisation's file is named with that file and line; the rest of it applies", async () => {
    await start({ repoFiles: { [ORG_FILE]: "review:\n  drafts: true\n  fail_on: sometimes\n" } });
    const reply = await askConfig();
    expect(reply).toContain(
      "- octo-org/.github:.github/no-mistakes.yml line 3: `review.fail_on`: expected one of: error, warning, info, never",
    );
    expect(reply).toContain("  drafts: true # octo-org/.github");
    expect(reply).toContain('  fail_on: "error" # default');
  });
});
