import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DockerSandbox } from "../../src/sandbox/docker.js";
import { tempWorkspace } from "./sandbox-fixture.js";

// No Docker engine on this machine: a stand-in client records what DockerSandbox asks of it. `run`
// echoes its arguments one per line; a last argument of "hang" makes it block like a long container.
const bin = tempWorkspace("pg-fake-docker-");
const docker = join(bin.dir, "docker");
writeFileSync(
  docker,
  `#!/bin/sh
echo "$*" >> "${bin.dir}/calls"
[ "$1" = run ] || exit 0
env > "${bin.dir}/client-env"
shift
for a in "$@"; do last="$a"; echo "$a"; done
[ "$last" = hang ] && exec sleep 1000
exit 4
`,
);
chmodSync(docker, 0o755);

describe("DockerSandbox with a stand-in client", () => {
  const ws = tempWorkspace();
  const sandbox = new DockerSandbox({ docker, image: "node:20-bookworm" });
  afterAll(() => {
    ws.cleanup();
    bin.cleanup();
    delete process.env.GITHUB_TOKEN;
  });

  test("passes the built argv to the client; the client's exit code is the result; no secrets reach the client", async () => {
    process.env.GITHUB_TOKEN = "ghs_fakeFAKEfake";
    const r = await sandbox.run({ argv: ["npm", "test"], workspace: ws.dir, timeoutMs: 10_000 });
    expect(r.exitCode).toBe(4);
    expect(r.stdout.split("\n").slice(0, 16)).toEqual([
      "--rm",
      "--name",
      expect.stringMatching(/^patchgate-[0-9a-f]{12}$/),
      "--network",
      "none",
      "--read-only",
      "--tmpfs",
      "/tmp:rw,exec,nosuid,mode=1777,size=2147483648",
      "--pids-limit",
      "256",
      "--memory",
      "2048m",
      "--memory-swap",
      "2048m",
      "--cpus",
      "1",
    ]);
    expect(r.stdout).toContain(`\n--user\n${process.getuid?.()}:${process.getgid?.()}\n`);
    expect(r.stdout.endsWith(`\n-v\n${ws.dir}:/workspace\n-w\n/workspace\nnode:20-bookworm\nnpm\ntest\n`)).toBe(true);
    expect(readFileSync(join(bin.dir, "client-env"), "utf8")).not.toContain("ghs_fake");
  });

  test("a timeout kills the client and then the container by name, before run() returns", async () => {
    writeFileSync(join(bin.dir, "calls"), "");
    const r = await sandbox.run({ argv: ["hang"], workspace: ws.dir, timeoutMs: 300 });
    expect({ timedOut: r.timedOut, signal: r.signal }).toEqual({ timedOut: true, signal: "SIGKILL" });
    const [run, kill, ...rest] = readFileSync(join(bin.dir, "calls"), "utf8").trim().split("\n");
    const name = /--name (patchgate-[0-9a-f]{12})/.exec(run)?.[1];
    expect(name).toMatch(/^patchgate-/);
    expect({ kill, rest }).toEqual({ kill: `kill ${name}`, rest: [] });
  });
});
