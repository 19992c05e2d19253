import { isRetryableStatus, parseRetryAfter, retryDelayMs, DEFAULT_RETRY_POLICY } from "../../src/agent/llm/retry-policy.js";

describe("retry policy", () => {
  test.each([408, 409, 429, 500, 502, 503])("status %i is retried", (s) => expect(isRetryableStatus(s)).toBe(true));
  test.each([400, 401, 403, 404, 422])("status %i is not retried", (s) => expect(isRetryableStatus(s)).toBe(false));
  test("a connection failure (no status) is retried", () => expect(isRetryableStatus(null)).toBe(true));

  test("retry-after in seconds", () => expect(parseRetryAfter({ "retry-after": "3" })).toBe(3000));
  test("retry-after-ms wins over retry-after", () => expect(parseRetryAfter({ "retry-after-ms": "250", "retry-after": "9" })).toBe(250));
  test("retry-after as an HTTP date", () => {
    const now = Date.parse("2026-11-29T10:00:00Z");
    expect(parseRetryAfter({ "retry-after": "Sun, 29 Nov 2026 10:00:05 GMT" }, now)).toBe(5000);
  });
  test("garbage retry-after is ignored", () => expect(parseRetryAfter({ "retry-after": "soon" })).toBeNull());

  test("backoff doubles per attempt within full-jitter bounds", () => {
    const p = { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 10_000 };
    expect(retryDelayMs(0, null, p, () => 0)).toBe(50);
    expect(retryDelayMs(0, null, p, () => 1)).toBe(100);
    expect(retryDelayMs(3, null, p, () => 1)).toBe(800);
    expect(retryDelayMs(20, null, p, () => 1)).toBe(10_000);
  });
  test("a server's retry-after is honoured, capped", () => {
    expect(retryDelayMs(0, 1234, DEFAULT_RETRY_POLICY)).toBe(1234);
    expect(retryDelayMs(0, 10 * 60_000, DEFAULT_RETRY_POLICY)).toBe(DEFAULT_RETRY_POLICY.maxDelayMs * 2);
  });
});
