import { execFile } from "node:child_process";
import { existsSync, linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync, copyFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { BubblewrapSandbox } from "../../src/sandbox/bubblewrap.js";
import { detectBwrapHost, detectNodeLayout, type BwrapHostSetup } from "../../src/sandbox/host-layout.js";
import { inForm, SANDBOX_FORMS, sh, tempWorkspace, type FormSandbox } from "./sandbox-fixture.js";

const run = promisify(execFile);
const MIB = 1024 * 1024;

async function hostSetup(): Promise<BwrapHostSetup> {
  const host = await detectBwrapHost();
  if ("reason" in host) throw new Error(`bubblewrap unavailable: ${host.reason}`);
  return host;
}

describe("bubblewrap: what the sandbox does not inherit from the host", () => {
  const ws = tempWorkspace("pg-hard-");
  afterAll(() => ws.cleanup());

  test.each(SANDBOX_FORMS)("%s: a descriptor Patchgate inherited without close-on-exec does not reach the command", async (form) => {
    const hostFile = join(ws.dir, "..", `pg-fd-target-${process.pid}`);
    writeFileSync(hostFile, "");
    const probe = join(import.meta.dirname, "fixtures", "inherited-fd-probe.ts");
    // Node marks low descriptors close-on-exec at start, not ones as high as 50: those pass to children.
    const script = `exec 50>>"$1"; exec "$2" --import tsx "$3" "$4" "$5"`;
    const { stdout } = await run("bash", ["-c", script, "bash", hostFile, process.execPath, probe, ws.dir, form], { cwd: process.cwd(), timeout: 60_000 });
    const r = JSON.parse(stdout.trim().split("\n").at(-1)!) as { exitCode: number; stdout: string; stderr: string };
    expect(readFileSync(hostFile, "utf8")).toBe("");
    expect(r.stdout.split("\n")[0].trim().split(" ")).toEqual(["0", "1", "2", "3"]); // 3: ls's own directory
    expect(r.stderr).toBe("bash: line 1: 50: Bad file descriptor\n");
  });
});

describe.each(SANDBOX_FORMS)("bubblewrap (%s): a node outside /usr", (form) => {
  const tmp = tempWorkspace("pg-node-prefix-");
  const prefix = join(tmp.dir, "home");
  const ws = join(tmp.dir, "ws");
  let sandbox: FormSandbox;

  beforeAll(async () => {
    // $HOME/bin/node: the prefix is HOME itself, with the app's .env beside the binary.
    mkdirSync(join(prefix, "bin"), { recursive: true });
    mkdirSync(join(prefix, "lib", "node_modules", "npm", "bin"), { recursive: true });
    mkdirSync(ws);
    try {
      linkSync(process.execPath, join(prefix, "bin", "node"));
    } catch {
      copyFileSync(process.execPath, join(prefix, "bin", "node"));
    }
    writeFileSync(
      join(prefix, "lib", "node_modules", "npm", "bin", "npm-cli.js"),
      '#!/usr/bin/env node\nconsole.log("npm from the prefix", process.argv.slice(2).join(" "));\n',
      { mode: 0o755 },
    );
    symlinkSync("../lib/node_modules/npm/bin/npm-cli.js", join(prefix, "bin", "npm"));
    writeFileSync(join(prefix, ".env"), "PRIVATE_KEY=do-not-leak\n");
    writeFileSync(join(prefix, "bin", ".env"), "PRIVATE_KEY=do-not-leak\n");
    writeFileSync(join(prefix, "lib", "secret.txt"), "do-not-leak\n");
    const layout = await detectNodeLayout(join(prefix, "bin", "node"));
    expect(layout).toEqual({
      binary: join(prefix, "bin", "node"),
      links: [{ path: join(prefix, "bin", "npm"), target: "../lib/node_modules/npm/bin/npm-cli.js" }],
      packages: [join(prefix, "lib", "node_modules", "npm")],
      libraries: [],
    });
    sandbox = inForm(new BubblewrapSandbox({ ...(await hostSetup()), node: layout }), form);
  });
  afterAll(async () => {
    await sandbox.end();
    tmp.cleanup();
  });

  test("node and npm run from it; the prefix's other files are not there", async () => {
    const r = await sh(
      sandbox,
      ws,
      `command -v node; node -e 'console.log("node ok")'; npm test; cat ${prefix}/.env ${prefix}/bin/.env ${prefix}/lib/secret.txt; ls -A ${prefix} ${prefix}/bin ${prefix}/lib`,
    );
    expect(r.stdout).toBe(
      `${prefix}/bin/node\nnode ok\nnpm from the prefix test\n${prefix}:\nbin\nlib\n\n${prefix}/bin:\nnode\nnpm\n\n${prefix}/lib:\nnode_modules\n`,
    );
    expect(r.stderr).toBe(["/.env", "/bin/.env", "/lib/secret.txt"].map((f) => `cat: ${prefix}${f}: No such file or directory\n`).join(""));
  });
});

describe.each(SANDBOX_FORMS)("bubblewrap (%s): disk and CPU limits", (form) => {
  let sandbox: FormSandbox;
  const ws = tempWorkspace("pg-quota-");
  beforeAll(async () => {
    sandbox = inForm(new BubblewrapSandbox(await hostSetup()), form);
  });
  afterAll(async () => {
    await sandbox.end();
    ws.cleanup();
  });

  test("a 600 MB file in the workspace stops at the quota (file size limit), signal recorded", async () => {
    const r = await sh(sandbox, ws.dir, "head -c 629145600 /dev/zero > big.bin", { limits: { diskBytes: 64 * MIB } });
    expect({ exitCode: r.exitCode, signal: r.signal, limitExceeded: r.limitExceeded, timedOut: r.timedOut }).toEqual({
      exitCode: null,
      signal: "SIGXFSZ",
      limitExceeded: "file_size",
      timedOut: false,
    });
    expect(readFileSync(join(ws.dir, "big.bin")).length).toBe(64 * MIB);
  });

  test("600 MB in many small files stops at the workspace limit, and none of it is kept", async () => {
    const r = await sh(
      sandbox,
      ws.dir,
      "mkdir -p many; i=0; while [ $i -lt 600 ]; do head -c 1048576 /dev/urandom > many/$i 2>/dev/null; i=$((i+1)); done; echo done",
      {
        limits: { diskBytes: 64 * MIB },
        timeoutMs: 120_000,
      },
    );
    expect({ exitCode: r.exitCode, signal: r.signal, limitExceeded: r.limitExceeded, timedOut: r.timedOut, stdout: r.stdout }).toEqual({
      exitCode: null,
      signal: null,
      limitExceeded: "disk",
      timedOut: false,
      stdout: "done\n",
    });
    expect(existsSync(join(ws.dir, "many"))).toBe(false);
  });

  test("600 MB written to /tmp stops at the quota too", async () => {
    const r = await sh(sandbox, ws.dir, "head -c 629145600 /dev/zero > /tmp/big; echo rc=$?; wc -c < /tmp/big", { limits: { diskBytes: 64 * MIB } });
    expect(r.stdout).toBe(`rc=153\n${64 * MIB}\n`); // 128 + SIGXFSZ: the file-size limit, at the tmpfs's own size
  });

  test("a CPU spin is killed by the CPU-time limit, signal recorded", async () => {
    const r = await sandbox.run({ argv: ["node", "-e", "for (;;) {}"], workspace: ws.dir, timeoutMs: 60_000, limits: { cpuSeconds: 1 } });
    expect({ exitCode: r.exitCode, signal: r.signal, limitExceeded: r.limitExceeded, timedOut: r.timedOut }).toEqual({
      exitCode: null,
      signal: "SIGXCPU",
      limitExceeded: "cpu",
      timedOut: false,
    });
  });
});
