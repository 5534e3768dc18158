import { describe, expect, it } from "vitest";
import { FlowFixture, ONE_BUG, PR_APP } from "../helpers/flow-fixture.js";
import { useFlowDatabase } from "../helpers/use-flow-database.js";
import type { PrShape } from "../helpers/webhook-payloads.js";

let fx: FlowFixture;
const database = useFlowDatabase(() => fx);

const DEPENDABOT = { login: "dependabot[bot]", type: "Bot" } as const;
const MAINTAINER = { login: "maintainer", type: "User" } as const;
const NOTHING_NEW = { summary: "Nothing new.", findings: [], resolved: [] };
const CLEAN = { summary: "Looks fine.", findings: [], resolved: [] };

async function start(configYaml = "", pull: Partial<PrShape> = {}): Promise<void> {
  fx = await FlowFixture.start(database.handle, { configYaml, permissions: { maintainer: "write" } });
  fx.pull = pull;
}

/** The last check run body (POST or PATCH) the app sent GitHub for `head`. */
function lastCheckSent(head: string): any {
  const ids = new Map<number, string>();
  for (const [id, c] of fx.github.checkRuns) ids.set(id, c.head_sha);
  const bodies = fx.github.requests
    .filter((r) => r.method === "POST" || r.method === "PATCH")
    .filter((r) => {
      if (r.path.endsWith("/check-runs")) return r.body.head_sha === head;
      const id = /\/check-runs\/(\d+)$/.exec(r.path)?.[1];
      return id !== undefined && ids.get(Number(id)) === head;
    });
  expect(bodies.length).toBeGreaterThan(0);
  return bodies.at(-1)!.body;
}

/** Pushes a change to README.md on top of the PR and delivers its synchronize as `sender`'s push. */
async function pushBy(sender: PrShape["sender"], before: string, steps: unknown[] = []): Promise<string> {
  const head = fx.push({ "README.md": `bump ${Math.random()}\n` }, "bump");
  fx.app.scenario(steps);
  await fx.pullRequest("synchronize", head, { before, sender });
  return head;
}

describe("review.bots judges the PR's author, never the sender of a push", () => {
  it("a person's PR whose first delivery is a bot's push is reviewed", async () => {
    await start();
    const head = fx.push({ "src/app.ts": PR_APP });
    fx.app.scenario([{ role: "reviewer", answer: ONE_BUG }]);
    await fx.pullRequest("synchronize", head, { sender: DEPENDABOT });
    expect(fx.app.agentCalls()).toHaveLength(1);
    expect(lastCheckSent(head)).toMatchObject({
      status: "completed",
      conclusion: "failure",
      output: { title: "1 open finding (1 error)" },
    });
  });

  it("a person's PR with an open error, pushed by a bot: the new head is reviewed and its check fails, naming the finding", async () => {
    await start();
    const first = await fx.openReviewed({ role: "reviewer", answer: ONE_BUG });
    const second = await pushBy(DEPENDABOT, first, [{ role: "reviewer", answer: NOTHING_NEW }]);
    expect(fx.app.agentCalls()).toHaveLength(2);
    const check = lastCheckSent(second);
    expect(check).toMatchObject({ conclusion: "failure", output: { title: "1 open finding (1 error)" } });
    expect(check.output.summary).toContain("Off-by-one in loop bound");
    expect(check.output.title).not.toContain("skipped");
  });

  it("a bot's PR: a neutral skip while never reviewed; a person's push is reviewed; the bot's next push keeps the check failing and says why", async () => {
    await start("", { author: "dependabot[bot]", authorType: "Bot" });
    const opened = fx.push({ "src/app.ts": PR_APP });
    await fx.pullRequest("opened", opened, { sender: DEPENDABOT });
    expect(fx.app.agentCalls()).toHaveLength(0);
    const skipped = lastCheckSent(opened);
    expect(skipped).toMatchObject({ conclusion: "neutral", output: { title: "Review skipped" } });
    expect(skipped.output.summary).toContain("its author is another bot, `dependabot[bot]` (`review.bots` is off)");
    expect(skipped.output.summary).toContain("`review.bots` judges who wrote the PR, so the check is neutral");

    // a person's commit on the bot's branch is that person's code: reviewed
    const byPerson = await pushBy(MAINTAINER, opened, [{ role: "reviewer", answer: ONE_BUG }]);
    expect(fx.app.agentCalls()).toHaveLength(1);
    expect(lastCheckSent(byPerson)).toMatchObject({
      conclusion: "failure",
      output: { title: "1 open finding (1 error)" },
    });

    // the bot pushes again: skipped, and the error found before still fails the check
    const byBot = await pushBy(DEPENDABOT, byPerson);
    expect(fx.app.agentCalls()).toHaveLength(1);
    const check = lastCheckSent(byBot);
    expect(check).toMatchObject({
      status: "completed",
      conclusion: "failure",
      output: { title: "Review skipped · 1 finding still open" },
    });
    expect(check.output.summary).toContain(
      "The check still fails: 1 finding from earlier reviews is open at or above `error` (`review.fail_on`), and skipping this head resolves nothing.",
    );
    expect(check.output.summary).toContain("| NM-1 |");
  });
});

describe("a skipped head never reports better than the PR stands", () => {
  it("a person's PR with an open error, labelled no-review and pushed: the skipped head's check fails and says why", async () => {
    await start("ignore:\n  labels: [no-review]\n");
    const first = await fx.openReviewed({ role: "reviewer", answer: ONE_BUG });
    fx.pull = { labels: ["no-review"] };
    const second = await pushBy(MAINTAINER, first);
    expect(fx.app.agentCalls()).toHaveLength(1);
    const check = lastCheckSent(second);
    expect(check).toMatchObject({ conclusion: "failure", output: { title: "Review skipped · 1 finding still open" } });
    expect(check.output.summary).toContain("Not reviewed automatically: it has the label `no-review`");
    expect(check.output.summary).toContain("The check still fails: 1 finding from earlier reviews is open");
    expect(check.output.summary).toContain("Off-by-one in loop bound");
  });

  it("a clean review, then retitled WIP and pushed: the unreviewed head fails, it does not pass as neutral", async () => {
    await start("ignore:\n  title: ['/^wip\\b/i']\n");
    const first = await fx.openReviewed({ role: "reviewer", answer: CLEAN });
    expect(lastCheckSent(first)).toMatchObject({ conclusion: "success" });
    fx.pull = { title: "WIP: more widgets" };
    const second = await pushBy(MAINTAINER, first);
    expect(fx.app.agentCalls()).toHaveLength(1);
    const check = lastCheckSent(second);
    expect(check).toMatchObject({ conclusion: "failure", output: { title: "Review skipped · not reviewed" } });
    expect(check.output.summary).toContain(
      `The last review (${first.slice(0, 7)}) left nothing failing, but this head is not reviewed, and \`ignore.title\` does not judge who wrote it: the check fails until a review passes.`,
    );
    // a writer's review clears it
    fx.app.scenario([{ role: "reviewer", answer: CLEAN }]);
    await fx.comment("/no-mistakes review", MAINTAINER);
    expect(lastCheckSent(second)).toMatchObject({ conclusion: "success" });
  });
});
