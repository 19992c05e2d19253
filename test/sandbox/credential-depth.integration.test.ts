import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { sessionExtras, withSession } from "../../src/agent/session-sandbox.js";
import { bubblewrap, sh, tempWorkspace } from "./sandbox-fixture.js";

/**
 * A bound toolchain directory is a tree: a credential file may sit anywhere in it, not only right
 * below it (a CARGO_HOME inside an operator's tools directory, a HOME a toolchain was unpacked into).
 */
const SECRET = "deploy_token=s3cr3t-at-depth";

const PLACES = [
  "tools/cargo/credentials.toml",
  "tools/cargo/credentials",
  "share/home/.pypirc",
  "lib/node/etc/npmrc",
  "a/b/c/.npmrc",
  "a/b/.netrc",
  "a/b/.git-credentials",
  "opt/.docker/config.json",
  "opt/x/.config/gh/hosts.yml",
  "opt/y/.aws/credentials",
];

test("credential files at any depth of a bound toolchain directory read as empty or absent inside the sandbox", async () => {
  const root = tempWorkspace("pg-cred-depth-");
  const ws = tempWorkspace("pg-cred-ws-");
  try {
    const toolchain = join(root.dir, "toolchain");
    for (const rel of PLACES) {
      mkdirSync(dirname(join(toolchain, rel)), { recursive: true });
      writeFileSync(join(toolchain, rel), `${SECRET}\n`);
    }
    writeFileSync(join(toolchain, "a", "b", "c", "tool.txt"), "visible\n");
    const sandbox = withSession(
      await bubblewrap(),
      sessionExtras([{ name: "t", version: "1", path: join(toolchain, "bin"), binds: [toolchain], how: "test" }], undefined),
    );
    const r = await sh(
      sandbox,
      ws.dir,
      PLACES.map((rel) => `cat ${join(toolchain, rel)} 2>/dev/null`).join("; ") + `; cat ${join(toolchain, "a/b/c/tool.txt")}`,
    );
    expect(r.stdout).not.toContain(SECRET);
    // The rest of the tree is there: the masks hide credential files, not the toolchain.
    expect(r.stdout).toBe("visible\n");
  } finally {
    root.cleanup();
    ws.cleanup();
  }
});
