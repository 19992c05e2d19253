import { OFFLINE_ENV } from "../../src/sandbox/offline-env.js";
import { type FormSandbox, SANDBOX_FORMS, SANDBOX_PATH_SEEN, bubblewrapIn, sh, tempWorkspace } from "./sandbox-fixture.js";

// Patchgate's own process holds credentials like these; none may reach a sandboxed command.
const FAKE_SECRETS: Record<string, string> = {
  GITHUB_TOKEN: "ghs_fakeFAKEfake0123456789",
  OPENAI_API_KEY: "sk-fakeFAKEfake0123456789",
  DATABASE_URL: "postgres://patchgate:secretpw@db.internal/patchgate",
};

const EXPECTED_ENV = {
  CI: "true",
  HOME: "/tmp/home",
  LANG: "C.UTF-8",
  PATH: SANDBOX_PATH_SEEN,
  PWD: "/workspace",
  TERM: "dumb",
  // A run without network tells the package managers so (offline-env.ts): no secret among them.
  ...OFFLINE_ENV,
};

function parseEnv(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split(/[\n\0]/)
      .filter((l) => l.includes("="))
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );
}

describe.each(SANDBOX_FORMS)("bubblewrap (%s): no secrets inside", (form) => {
  let sandbox: FormSandbox;
  const ws = tempWorkspace();
  const saved: Record<string, string | undefined> = {};

  beforeAll(async () => {
    for (const [k, v] of Object.entries(FAKE_SECRETS)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    sandbox = await bubblewrapIn(form);
  });
  afterAll(async () => {
    await sandbox.end();
    for (const k of Object.keys(FAKE_SECRETS)) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    ws.cleanup();
  });

  test("`env` shows exactly the allowlist", async () => {
    const r = await sandbox.run({ argv: ["env"], workspace: ws.dir, timeoutMs: 10_000 });
    expect(r.exitCode).toBe(0);
    expect(parseEnv(r.stdout)).toEqual(EXPECTED_ENV);
  });

  test("/proc/self/environ shows exactly the allowlist", async () => {
    const r = await sandbox.run({ argv: ["cat", "/proc/self/environ"], workspace: ws.dir, timeoutMs: 10_000 });
    expect(parseEnv(r.stdout)).toEqual(EXPECTED_ENV);
  });

  test("no process in the sandbox, bwrap's own pid 1 included, carries a secret", async () => {
    const r = await sh(sandbox, ws.dir, 'for f in /proc/[0-9]*/environ; do echo "== $f"; cat "$f"; echo; done');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("== /proc/1/environ");
    for (const value of Object.values(FAKE_SECRETS)) expect(r.stdout).not.toContain(value);
    for (const key of Object.keys(FAKE_SECRETS)) expect(r.stdout).not.toContain(`${key}=`);
  });

  test("req.env passes plain variables and refuses secret-looking ones, saying so on stderr", async () => {
    const env = {
      FOO: "bar",
      GIT_AUTHOR_NAME: "Patchgate",
      MY_TOKEN: "t",
      GITHUB_REPOSITORY: "o/r",
      DATABASE_URL: "postgres://x",
      HARMLESS_NAME: "ghp_looksLikeAToken",
      NODE_AUTH_TOKEN: "n",
    };
    const r = await sandbox.run({ argv: ["env"], workspace: ws.dir, timeoutMs: 10_000, env });
    expect(parseEnv(r.stdout)).toEqual({ ...EXPECTED_ENV, FOO: "bar", GIT_AUTHOR_NAME: "Patchgate" });
    expect(r.stderr).toBe(
      "patchgate-sandbox: refused environment variables that look like secrets: MY_TOKEN, GITHUB_REPOSITORY, DATABASE_URL, HARMLESS_NAME, NODE_AUTH_TOKEN\n",
    );
  });
});
