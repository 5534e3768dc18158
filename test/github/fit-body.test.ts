import { describe, expect, it } from "vitest";
import { fitBody } from "../../src/github/fit-body.js";

describe("fitBody", () => {
  it("leaves bodies under GitHub's limit alone", () => {
    const body = `<!-- no-mistakes:summary -->\n${"x".repeat(1000)}`;
    expect(fitBody(body)).toBe(body);
  });

  it("cuts a body over the limit and keeps the hidden markers the bot finds its writes by", () => {
    const body = `<!-- no-mistakes:summary -->\n${"row\n".repeat(30_000)}<!-- no-mistakes:review:abc123 -->`;
    const fitted = fitBody(body);
    expect(fitted.length).toBeLessThanOrEqual(65_000);
    expect(fitted.startsWith("<!-- no-mistakes:summary -->")).toBe(true);
    expect(fitted).toContain("cut to fit GitHub's size limit");
    expect(fitted).toContain("<!-- no-mistakes:review:abc123 -->");
  });
});
