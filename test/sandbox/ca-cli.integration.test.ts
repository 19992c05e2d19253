import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { makeRepo, tempDir } from "../helpers/git-fixture.js";
import { cli } from "../helpers/run-cli.js";

/**
 * The CLI makes the CA bundle before a session exists: a variable naming a bad file is one line
 * naming the variable and the file, exit 2, no session and no stack trace.
 */
describe("patchgate run: the CA bundle is checked at start", () => {
  const repo = makeRepo({ "README.md": "x\n" });
  const data = tempDir("pg-ca-cli-");
  afterAll(() => {
    repo.cleanup();
    rmSync(data, { recursive: true, force: true });
  });

  test.each([
    ["PATCHGATE_CA_BUNDLE", { NODE_EXTRA_CA_CERTS: "" }],
    ["NODE_EXTRA_CA_CERTS", { PATCHGATE_CA_BUNDLE: "" }],
  ])("%s naming a missing file", async (variable, others) => {
    const missing = join(data, "no-such-ca.pem");
    const r = await cli(["run", "--repo", repo.dir, "fix it"], { ...others, [variable]: missing, PATCHGATE_DATA_DIR: data });
    expect(r.code).toBe(2);
    // Node itself warns first about a NODE_EXTRA_CA_CERTS it cannot read; Patchgate's own word is one line.
    expect(r.stderr.split("\n").filter((l) => l.startsWith("patchgate"))).toEqual([`patchgate: ${variable}: cannot read ${missing} (ENOENT)`]);
    expect(r.stderr).not.toContain("    at ");
    expect(r.stdout).not.toContain("session ");
    expect(existsSync(join(data, "workspaces")) ? readdirSync(join(data, "workspaces")) : []).toEqual([]);
  });
});
