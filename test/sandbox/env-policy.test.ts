import { looksLikeSecret, sandboxEnv } from "../../src/sandbox/env-policy.js";

describe("looksLikeSecret", () => {
  test.each([
    ["GITHUB_TOKEN", "x"],
    ["GITHUB_REPOSITORY", "o/r"],
    ["OPENAI_BASE_URL", "http://localhost"],
    ["DATABASE_URL", "sqlite"],
    ["AWS_REGION", "eu-west-1"],
    ["NPM_TOKEN", "x"],
    ["NODE_AUTH_TOKEN", "x"],
    ["API_KEY", "x"],
    ["MY_SECRET_THING", "x"],
    ["DB_PASSWORD", "x"],
    ["PRIVATE_KEY", "x"],
    ["npm_config__authToken", "x"],
    ["PATCHGATE_MODEL", "gpt"],
    ["PLAIN", "ghs_abcdef"],
    ["PLAIN", "github_pat_11ABC"],
    ["PLAIN", "sk-proj-abc"],
    ["PLAIN", "-----BEGIN RSA PRIVATE KEY-----"],
    ["REDIS", "redis://user:pw@host:6379"],
  ])("%s=%s is refused", (key, value) => {
    expect(looksLikeSecret(key, value)).toBe(true);
  });

  test.each([
    ["NODE_ENV", "test"],
    ["GIT_AUTHOR_NAME", "Patchgate"],
    ["FORCE_COLOR", "0"],
    ["JEST_WORKERS", "2"],
    ["SITE_URL", "https://example.com/path"],
  ])("%s=%s passes", (key, value) => {
    expect(looksLikeSecret(key, value)).toBe(false);
  });
});

describe("sandboxEnv", () => {
  test("allowlist first, extras merged over it, bad keys refused in order", () => {
    expect(sandboxEnv({ NODE_ENV: "test", "BAD-KEY": "x", GH_TOKEN: "y", LANG: "en_US.UTF-8" }, ["/opt/node/bin"])).toEqual({
      env: {
        PATH: "/opt/node/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        HOME: "/tmp/home",
        LANG: "en_US.UTF-8",
        TERM: "dumb",
        CI: "true",
        NODE_ENV: "test",
      },
      refused: ["BAD-KEY", "GH_TOKEN"],
    });
  });
});
