import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CaBundleError, caCertificates, writeCaBundle } from "../../src/sandbox/ca-bundle.js";
import { CA_BUNDLE_VARIABLES, caBundleEnv } from "../../src/sandbox/env-policy.js";
import { startupEnvProblem } from "../../src/github/startup-env.js";

// Shaped like PEM certificates; only their text matters to the bundle, which never parses them.
const pem = (body: string) => `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----`;
const PROXY_CA = pem("UHJveHlDQQ==");
const PUBLIC_ROOT = pem("UHVibGljUm9vdA==");

describe("the CA bundle", () => {
  let dir: string;
  const file = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "pg-ca-unit-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("by default: the host's NODE_EXTRA_CA_CERTS and the first system bundle that exists, each certificate once", () => {
    const extra = file("extra.pem", `${PROXY_CA}\n`);
    const system = file("system.crt", `# comment\r\n${PUBLIC_ROOT.replace(/\n/g, "\r\n")}\r\n${PROXY_CA}\n`);
    expect(caCertificates({ NODE_EXTRA_CA_CERTS: extra }, [join(dir, "missing.crt"), system])).toEqual([PROXY_CA, PUBLIC_ROOT]);
    expect(caCertificates({}, [system])).toEqual([PUBLIC_ROOT, PROXY_CA]);
    expect(caCertificates({}, [join(dir, "missing.crt")])).toEqual([]);
  });

  test("PATCHGATE_CA_BUNDLE is the whole bundle: neither the host's variable nor the system bundle is added", () => {
    const named = file("operator.pem", `${PROXY_CA}\n${PROXY_CA}\n`);
    const system = file("system.crt", PUBLIC_ROOT);
    expect(caCertificates({ PATCHGATE_CA_BUNDLE: named, NODE_EXTRA_CA_CERTS: system }, [system])).toEqual([PROXY_CA]);
  });

  test.each([
    ["PATCHGATE_CA_BUNDLE", "missing", /^PATCHGATE_CA_BUNDLE: cannot read \/.*\/nothing-here\.pem \(ENOENT\)$/],
    ["NODE_EXTRA_CA_CERTS", "missing", /^NODE_EXTRA_CA_CERTS: cannot read \/.*\/nothing-here\.pem \(ENOENT\)$/],
    ["PATCHGATE_CA_BUNDLE", "empty", /^PATCHGATE_CA_BUNDLE: \/.*\/empty\.pem holds no PEM certificate$/],
    ["PATCHGATE_CA_BUNDLE", "relative", /^PATCHGATE_CA_BUNDLE must be an absolute path, not "certs\/ca\.pem"$/],
  ] as const)("%s naming a bad file (%s) is one line naming the variable and the file", (variable, kind, message) => {
    const path = kind === "missing" ? join(dir, "nothing-here.pem") : kind === "empty" ? file("empty.pem", "not a certificate\n") : "certs/ca.pem";
    let thrown: unknown;
    try {
      caCertificates({ [variable]: path }, []);
    } catch (e) {
      thrown = e;
    }
    expect(CaBundleError.isInstance(thrown)).toBe(true);
    expect((thrown as Error).message).toMatch(message);
  });

  test("the app's start check names a bad path in one line", () => {
    expect(startupEnvProblem({ PATCHGATE_CA_BUNDLE: join(dir, "gone.pem") }, {})).toBe(`PATCHGATE_CA_BUNDLE: cannot read ${join(dir, "gone.pem")} (ENOENT)`);
    expect(startupEnvProblem({}, { NODE_EXTRA_CA_CERTS: join(dir, "gone.pem") })).toBe(`NODE_EXTRA_CA_CERTS: cannot read ${join(dir, "gone.pem")} (ENOENT)`);
  });

  test("is written once per start in the data dir, read-only, replacing the last start's", () => {
    const data = join(dir, "data");
    const first = writeCaBundle(data, { PATCHGATE_CA_BUNDLE: file("a.pem", PROXY_CA) }, []);
    expect(first).toBe(join(data, "ca-bundle.pem"));
    expect(statSync(first!).mode & 0o777).toBe(0o444);
    const second = writeCaBundle(data, { PATCHGATE_CA_BUNDLE: file("b.pem", `${PROXY_CA}\n${PUBLIC_ROOT}`) }, []);
    expect(readFileSync(second!, "utf8")).toBe(`${PROXY_CA}\n${PUBLIC_ROOT}\n`);
    expect(writeCaBundle(join(dir, "none"), {}, [])).toBeNull();
  });

  test("the sandbox names it in exactly the variables each tool reads", () => {
    expect(Object.keys(caBundleEnv("/x.pem")).sort()).toEqual([...CA_BUNDLE_VARIABLES].sort());
    expect(CA_BUNDLE_VARIABLES).toEqual([
      "NODE_EXTRA_CA_CERTS",
      "SSL_CERT_FILE",
      "PIP_CERT",
      "REQUESTS_CA_BUNDLE",
      "CARGO_HTTP_CAINFO",
      "GIT_SSL_CAINFO",
      "npm_config_cafile",
    ]);
    expect(new Set(Object.values(caBundleEnv("/x.pem")))).toEqual(new Set(["/x.pem"]));
  });
});
