import { redact, redactDeep } from "../../src/safety/redact.js";
import { secretsFromEnv } from "../../src/safety/secrets.js";
import { PEM, SAMPLES, WEBHOOK_SECRET, fakeChars } from "../trace/fixtures/secrets.js";

describe("redact", () => {
  it.each(SAMPLES)("replaces a $kind", ({ text, expected, secret }) => {
    const out = redact(text);
    expect(out).toBe(expected);
    expect(out).not.toContain(secret);
  });

  it("replaces configured secret values, every occurrence, longest first", () => {
    const out = redact(`a ${WEBHOOK_SECRET} b ${WEBHOOK_SECRET}-x`, ["hunter2-but", WEBHOOK_SECRET]);
    expect(out).toBe("a [REDACTED:secret] b [REDACTED:secret]-x");
  });

  it("ignores configured values shorter than 6 characters", () => {
    expect(redact("the word abc stays", ["abc", "12345"])).toBe("the word abc stays");
  });

  it("treats regex metacharacters in a configured secret literally", () => {
    expect(redact("x a.b*c(d)$ y aXbbc(d)$", ["a.b*c(d)$"])).toBe("x [REDACTED:secret] y aXbbc(d)$");
  });

  it("redacts an unterminated PEM block to the end of the text", () => {
    const cut = PEM.slice(0, 80);
    expect(redact(`before\n${cut}`)).toBe("before\n[REDACTED:private_key]");
  });

  it("redacts PEM variants (PKCS#8, EC, OpenSSH)", () => {
    for (const label of ["PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY"]) {
      const block = `-----BEGIN ${label}-----\n${fakeChars(40)}\n-----END ${label}-----`;
      expect(redact(`k=${block};`)).toBe("k=[REDACTED:private_key];");
    }
  });

  it("does not redact token prefixes inside longer identifiers or short look-alikes", () => {
    const text = "myghp_notatoken sk-learn task-skills ghp_short";
    expect(redact(text)).toBe(text);
  });

  it("finds credentials inside JSON-serialised strings (tool-call arguments)", () => {
    const basic = `${fakeChars(22)}==`;
    const args = JSON.stringify({ headers: `{"Authorization": "Basic ${basic}"}` });
    expect(redact(args)).toBe('{"headers":"{\\"Authorization\\": \\"Basic [REDACTED:authorization]\\"}"}');
    const quoted = 'pa"ss\\word';
    expect(redact(JSON.stringify({ pw: quoted }), [quoted])).toBe('{"pw":"[REDACTED:secret]"}');
  });

  it.each([
    ["letters", "a".repeat(1_000_000)],
    ["URL-ish", "x://y:".repeat(150_000)],
    ["token prefixes", "ghp_sk-github_pat_".repeat(50_000)],
    ["unterminated PEM headers", "-----BEGIN RSA PRIVATE KEY-----\n".repeat(20_000)],
    ["authorization headers", "Authorization: Bearer ".repeat(40_000)],
  ])("stays linear on a megabyte of %s", (_name, text) => {
    const started = Date.now();
    redact(text, ["configured-secret"]);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("leaves text without credentials unchanged", () => {
    const text = "Fixed the off-by-one in src/parser.ts; 12 tests pass. Authorization header is documented.";
    expect(redact(text)).toBe(text);
  });
});

describe("redactDeep", () => {
  it("redacts strings at any depth, keys included, without mutating the input", () => {
    const token = `ghs_${fakeChars(36)}`;
    const input = { a: [`x ${token}`, 3, null], b: { [WEBHOOK_SECRET]: { c: WEBHOOK_SECRET } }, d: true };
    const copy = structuredClone(input);
    expect(redactDeep(input, [WEBHOOK_SECRET])).toEqual({
      a: ["x [REDACTED:github_token]", 3, null],
      b: { "[REDACTED:secret]": { c: "[REDACTED:secret]" } },
      d: true,
    });
    expect(input).toEqual(copy);
  });

  it("keeps cycles as cycles", () => {
    const node: { name: string; self?: unknown } = { name: WEBHOOK_SECRET };
    node.self = node;
    const out = redactDeep(node, [WEBHOOK_SECRET]) as { name: string; self: unknown };
    expect(out.name).toBe("[REDACTED:secret]");
    expect(out.self).toBe(out);
  });
});

describe("secretsFromEnv", () => {
  it("collects secret-named variables, URL passwords and the unescaped PEM; skips the rest", () => {
    const env = {
      GITHUB_TOKEN: "ghs_abcdefabcdefabcdef",
      GITHUB_APP_TOKEN_READ: "tok-value-2",
      OPENAI_API_KEY: "sk-whatever-123456",
      WEBHOOK_SECRET: WEBHOOK_SECRET,
      PRIVATE_KEY: "-----BEGIN RSA PRIVATE KEY-----\\nabc\\n-----END RSA PRIVATE KEY-----",
      DATABASE_URL: "postgres://app:p%40ssw0rd!@db:5432/pg",
      PRIVATE_KEY_PATH: "/etc/patchgate/key.pem",
      PATCHGATE_MAX_TOKENS: "200000",
      APP_ID: "123456",
      HOME: "/root",
      SHORT_SECRET: "abc",
    };
    expect(secretsFromEnv(env).sort()).toEqual(
      [
        "ghs_abcdefabcdefabcdef",
        "tok-value-2",
        "sk-whatever-123456",
        WEBHOOK_SECRET,
        "-----BEGIN RSA PRIVATE KEY-----\\nabc\\n-----END RSA PRIVATE KEY-----",
        "-----BEGIN RSA PRIVATE KEY-----\nabc\n-----END RSA PRIVATE KEY-----",
        "p%40ssw0rd!",
        "p@ssw0rd!",
      ].sort(),
    );
  });
});
