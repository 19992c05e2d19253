import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { tempDir } from "../helpers/git-fixture.js";
import { ROOT } from "../helpers/run-cli.js";

/**
 * The README's `npm ci && npm start` on a machine whose node is older than 24: npm's postinstall
 * (bin/link-node-24.sh) links Node 24 as node_modules/.bin/node, which npm puts first on PATH for
 * every script, so the scripts run on 24 while npm itself and the machine's node stay as they are.
 * Node 24 is the one running this test, planted where the script looks for it, so nothing is
 * downloaded. Needs a node older than 24 on the machine (PATH, /usr/bin or /usr/local/bin): without
 * one the test says so in one line and passes, unless PATCHGATE_CI is set, where it fails.
 */
function olderNode(): string | undefined {
  const dirs = [...(process.env.PATH ?? "").split(delimiter), "/usr/bin", "/usr/local/bin"];
  for (const dir of dirs) {
    const node = join(dir, "node");
    if (!dir || !existsSync(node)) continue;
    const major = Number(spawnSync(node, ["-p", "process.versions.node.split('.')[0]"], { encoding: "utf8" }).stdout.trim());
    if (major > 0 && major < 24) return node;
  }
  return undefined;
}

const major = (version: string) => Number(version.trim().replace(/^v/, "").split(".")[0]);

describe("npm's postinstall where the node on PATH is older than 24", () => {
  let checkout: string;
  let nodeHome: string;
  beforeEach(() => {
    checkout = tempDir("pg-older-node-");
    mkdirSync(join(checkout, "node_modules"));
    for (const f of ["bin/link-node-24.sh", ".ci/node-24.sh"]) cpSync(join(ROOT, f), join(checkout, f));
    // A project whose only script prints the node that runs it, the way `npm start` runs ours.
    writeFileSync(join(checkout, "package.json"), JSON.stringify({ name: "older-node", private: true, scripts: { which: "node -p process.version" } }));
    nodeHome = tempDir("pg-node-home-");
    const bin = join(nodeHome, "node_modules", `node-${process.platform}-${process.arch}`, "bin");
    mkdirSync(bin, { recursive: true });
    symlinkSync(process.execPath, join(bin, "node"));
  });
  afterEach(() => {
    rmSync(checkout, { recursive: true, force: true });
    rmSync(nodeHome, { recursive: true, force: true });
  });

  const postinstall = (pathFirst: string) =>
    spawnSync("sh", ["bin/link-node-24.sh"], {
      cwd: checkout,
      encoding: "utf8",
      env: { ...process.env, PATH: `${pathFirst}${delimiter}${process.env.PATH}`, PATCHGATE_NODE_HOME: nodeHome },
    });

  test("links Node 24 as node_modules/.bin/node, and npm's scripts run on it", () => {
    const older = olderNode();
    if (older === undefined) {
      const name = expect.getState().currentTestName ?? "a test";
      if (process.env.PATCHGATE_CI) throw new Error(`no node older than 24 on this machine, and "${name}" must run in CI`);
      console.log(`skipped: "${name}" needs a node older than 24 on the machine`);
      return;
    }
    const r = postinstall(dirname(older));
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: "" });
    expect(r.stdout).toContain("linked node_modules/.bin/node");
    expect(major(execFileSync(join(checkout, "node_modules/.bin/node"), ["--version"], { encoding: "utf8" }))).toBeGreaterThanOrEqual(24);
    // npm itself on the older node (its shebang finds that one first), its script on Node 24.
    const env = { ...process.env, PATH: `${dirname(older)}${delimiter}${process.env.PATH}` };
    expect(major(execFileSync("node", ["--version"], { cwd: checkout, env, encoding: "utf8" }))).toBeLessThan(24);
    expect(major(execFileSync("npm", ["run", "--silent", "which"], { cwd: checkout, env, encoding: "utf8" }))).toBeGreaterThanOrEqual(24);
  });

  test("on Node 24 it links nothing", () => {
    const r = postinstall(dirname(process.execPath));
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(existsSync(join(checkout, "node_modules/.bin/node"))).toBe(false);
  });
});
