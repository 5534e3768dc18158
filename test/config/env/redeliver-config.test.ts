import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/config/config-error.js";
import { readRedeliverConfig } from "../../../src/config/env/redeliver-config.js";

describe("readRedeliverConfig", () => {
  it.each([
    [undefined, 5 * 60_000],
    ["", 5 * 60_000],
    ["300", 300_000],
    ["90s", 90_000],
    ["5m", 300_000],
    ["1h", 3_600_000],
    ["0", null],
    ["0m", null],
    ["off", null],
    ["OFF", null],
  ])("REDELIVER_INTERVAL=%s → %s ms", (value, intervalMs) => {
    expect(readRedeliverConfig({ REDELIVER_INTERVAL: value })).toEqual({ intervalMs, maxAttempts: 5 });
  });

  it.each([
    ["soon", /is not a duration; write 300, 90s, 5m or 1h/],
    ["-5m", /is not a duration/],
    ["5s", /too short.*10s at the least/],
  ])("REDELIVER_INTERVAL=%s is refused", (value, message) => {
    let error: unknown;
    try {
      readRedeliverConfig({ REDELIVER_INTERVAL: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      expect.stringMatching(new RegExp(`^REDELIVER_INTERVAL: .*${message.source}`)),
    ]);
  });

  it.each([
    ["2", 2],
    ["12", 12],
    [" 50 ", 50],
  ])("REDELIVER_MAX_ATTEMPTS=%j → %s", (value, maxAttempts) => {
    expect(readRedeliverConfig({ REDELIVER_MAX_ATTEMPTS: value })).toMatchObject({ maxAttempts });
  });

  it.each(["1", "0", "51", "five", "3.5"])("REDELIVER_MAX_ATTEMPTS=%s is refused", (value) => {
    expect(() => readRedeliverConfig({ REDELIVER_MAX_ATTEMPTS: value })).toThrow(ConfigError);
  });
});
