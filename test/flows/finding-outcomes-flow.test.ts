import { beforeEach, describe, expect, it } from "vitest";
import { FlowFixture, ONE_BUG } from "../helpers/flow-fixture.js";
import { useFlowDatabase } from "../helpers/use-flow-database.js";

let fx: FlowFixture;
const database = useFlowDatabase(() => fx);

describe("a finding's outcome follows its pull request", () => {
  beforeEach(async () => {
    fx = await FlowFixture.start(database.handle);
  });

  const outcomes = async () => (await fx.findings()).map((f) => [`NM-${f.number}`, f.outcome]);

  it("closed unmerged → abandoned; reopened → open again; merged → open at merge", async () => {
    const head = await fx.openReviewed({ role: "reviewer", answer: ONE_BUG });
    expect(await outcomes()).toEqual([["NM-1", null]]);

    await fx.pullRequest("closed", head);
    expect(await outcomes()).toEqual([["NM-1", "abandoned"]]);

    await fx.pullRequest("reopened", head);
    expect((await fx.run()).state).toBe("open");
    expect(await outcomes()).toEqual([["NM-1", null]]);
    expect((await fx.findings())[0]!.outcomeAt).toBeNull();

    await fx.pullRequest("closed", head, { mergedBy: "maintainer" });
    const [nm1] = await fx.findings();
    expect(nm1!.outcome).toBe("open-at-merge");
    expect(nm1!.outcomeAt).toEqual((await fx.run()).mergedAt);
  });
});
