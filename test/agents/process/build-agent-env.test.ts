import { describe, expect, it } from "vitest";
import { buildAgentEnv, isForbiddenAgentEnvName } from "../../../src/agents/process/build-agent-env.js";

describe("buildAgentEnv", () => {
  const base: NodeJS.ProcessEnv = {
    PATH: "/usr/bin",
    LANG: "C.UTF-8",
    LC_ALL: "C",
    TZ: "UTC",
    TMPDIR: "/tmp",
    NODE_EXTRA_CA_CERTS: "/ca.pem",
    SSL_CERT_FILE: "/cert.pem",
    HTTPS_PROXY: "http://proxy:3128",
    HTTP_PROXY: "http://proxy:3128",
    NO_PROXY: "localhost",
    HOME: "/root",
    USER: "root",
    GITHUB_TOKEN: "ghs_secret",
    GH_TOKEN: "gho_secret",
    NPM_TOKEN: "npm_secret",
    DATABASE_URL: "postgres://u:p@db/x",
    PRIVATE_KEY: "-----BEGIN",
    WEBHOOK_SECRET: "whsec",
    APP_ID: "123",
    ANTHROPIC_API_KEY: "from-parent",
    AWS_SECRET_ACCESS_KEY: "aws",
  };

  it("keeps only the allowlisted variables of the parent", () => {
    expect(buildAgentEnv({}, base)).toEqual({
      PATH: "/usr/bin",
      LANG: "C.UTF-8",
      LC_ALL: "C",
      TZ: "UTC",
      TMPDIR: "/tmp",
      NODE_EXTRA_CA_CERTS: "/ca.pem",
      SSL_CERT_FILE: "/cert.pem",
      HTTPS_PROXY: "http://proxy:3128",
      HTTP_PROXY: "http://proxy:3128",
      NO_PROXY: "localhost",
    });
  });

  it("adds extra values, drops undefined ones, and lets extra win", () => {
    const env = buildAgentEnv(
      { ANTHROPIC_API_KEY: "k", CLAUDE_CONFIG_DIR: "/c", HOME: "/c/home", LANG: "en_US.UTF-8", UNSET: undefined },
      base,
    );
    expect(env).toMatchObject({
      ANTHROPIC_API_KEY: "k",
      CLAUDE_CONFIG_DIR: "/c",
      HOME: "/c/home",
      LANG: "en_US.UTF-8",
    });
    expect("UNSET" in env).toBe(false);
  });

  it("never passes tokens or app secrets, not even as extra", () => {
    const env = buildAgentEnv(
      {
        GITHUB_TOKEN: "x",
        GH_TOKEN: "x",
        SOME_TOKEN: "x",
        DATABASE_URL: "x",
        PRIVATE_KEY: "x",
        WEBHOOK_SECRET: "x",
        APP_ID: "1",
        GITHUB_APP_PRIVATE_KEY: "x",
      },
      base,
    );
    for (const name of [
      "GITHUB_TOKEN",
      "GH_TOKEN",
      "SOME_TOKEN",
      "NPM_TOKEN",
      "DATABASE_URL",
      "PRIVATE_KEY",
      "WEBHOOK_SECRET",
      "APP_ID",
      "GITHUB_APP_PRIVATE_KEY",
      "AWS_SECRET_ACCESS_KEY",
    ]) {
      expect(env[name], name).toBeUndefined();
    }
    expect(isForbiddenAgentEnvName("OPENAI_API_KEY")).toBe(false);
    expect(isForbiddenAgentEnvName("ANTHROPIC_API_KEY")).toBe(false);
  });

  it("defaults to process.env and always has a PATH", () => {
    expect(buildAgentEnv({}, {}).PATH).toBeTruthy();
    const saved = process.env.GITHUB_TOKEN;
    process.env.GITHUB_TOKEN = "ghs_parent";
    try {
      expect(buildAgentEnv({}).GITHUB_TOKEN).toBeUndefined();
    } finally {
      if (saved === undefined) delete process.env.GITHUB_TOKEN;
      else process.env.GITHUB_TOKEN = saved;
    }
  });
});
