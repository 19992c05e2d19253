import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadOperatorSettings } from "../../src/config/operator-settings.js";
import { tempWorkspace } from "../sandbox/sandbox-fixture.js";

describe("operator settings: sandbox.registries", () => {
  const tmp = tempWorkspace("pg-registries-");
  afterAll(() => tmp.cleanup());
  const tokenFile = join(tmp.dir, "pypi-token");
  writeFileSync(tokenFile, "pypi-password-from-file\n");
  const env = { CORP_NPM_TOKEN: "npm-token-from-env" };
  const load = (registries: unknown[]) => {
    const file = join(tmp.dir, "settings.json");
    writeFileSync(file, JSON.stringify({ sandbox: { registries } }));
    return () => loadOperatorSettings(file, [], env);
  };
  const npm = { name: "corp-npm", type: "npm", url: "https://npm.corp.example/", scope: "@corp", credential: { env: "CORP_NPM_TOKEN" } };
  const pip = { name: "corp-pypi", type: "pip", url: "https://pypi.corp.example/simple/", username: "ci", credential: { file: tokenFile } };

  test("each credential is read at load, sent in its scheme, and every form of it is a secret to redact", async () => {
    const settings = load([npm, pip])();
    expect(settings.registries.map((r) => ({ name: r.name, kind: r.kind, scope: r.scope }))).toEqual([
      { name: "corp-npm", kind: "npm", scope: "@corp" },
      { name: "corp-pypi", kind: "pip", scope: undefined },
    ]);
    const basic = Buffer.from("ci:pypi-password-from-file").toString("base64");
    expect(await Promise.all(settings.registries.map((r) => r.authorization({})))).toEqual(["Bearer npm-token-from-env", `Basic ${basic}`]);
    expect(settings.registrySecrets).toEqual(expect.arrayContaining(["npm-token-from-env", "Bearer npm-token-from-env", "pypi-password-from-file", basic]));
  });

  test("GitHub Packages: the session's installation token, given on the host per session; none, no request", async () => {
    const [gh] = load([{ name: "gh", type: "npm", url: "https://npm.pkg.github.com/", scope: "@octo", credential: { github_app: true } }])().registries;
    await expect(gh.authorization({ installationToken: "ghs_installation0123" })).resolves.toBe("Bearer ghs_installation0123");
    await expect(gh.authorization({})).rejects.toThrow("a github_app credential is the GitHub App's installation token, and this session has none");
    expect(load([{ name: "gh", type: "npm", url: "https://npm.pkg.github.com/", auth: "basic", username: "x", credential: { github_app: true } }])).toThrow(
      "`sandbox.registries.0.auth` must be bearer with a github_app credential",
    );
  });

  test("a bad registry is one line naming its field", () => {
    expect(load([{ ...npm, credential: { env: "UNSET_TOKEN" } }])).toThrow("`sandbox.registries.0.credential.env` UNSET_TOKEN is not set");
    expect(load([{ ...pip, credential: { file: join(tmp.dir, "missing") } }])).toThrow(
      `\`sandbox.registries.0.credential.file\` cannot read ${join(tmp.dir, "missing")} (ENOENT)`,
    );
    expect(load([{ ...npm, url: "http://npm.corp.example/" }])).toThrow("`sandbox.registries.0.url` must be an https:// URL");
    expect(load([{ ...npm, url: "https://user:pw@npm.corp.example/" }])).toThrow("`sandbox.registries.0.url` must be an https:// URL without credentials");
    expect(load([{ ...pip, username: undefined }])).toThrow("`sandbox.registries.0.username` is required for basic auth");
    expect(load([{ ...pip, scope: "@corp" }])).toThrow("`sandbox.registries.0.scope` is only for npm registries");
    expect(load([npm, { ...npm, scope: undefined }])).toThrow("`sandbox.registries.1.name` corp-npm is declared twice");
    expect(load([{ ...npm, name: "Corp NPM" }])).toThrow("`sandbox.registries.0.name` must be 1-40 lower-case letters");
    expect(load([{ ...npm, password: "x" }])).toThrow('`sandbox.registries.0` Unrecognized key: "password"');
    // A registry on a private address is declared where every private destination is, not here.
    expect(load([{ ...npm, private_address: true }])).toThrow(
      "`sandbox.registries.0.private_address` is declared in PATCHGATE_PRIVATE_DESTINATIONS instead: name the registry's host there",
    );
    for (const run of [load([{ ...npm, credential: { env: "UNSET_TOKEN" } }]), load([{ ...pip, username: undefined }])]) {
      expect(() => run()).toThrow(/^[^\n]+$/);
    }
  });
});
