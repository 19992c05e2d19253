import { buildDockerArgv, dockerClientEnv } from "../../src/sandbox/docker-argv.js";
import { prepareRun } from "../../src/sandbox/prepare-run.js";
import { OFFLINE_ENV } from "../../src/sandbox/offline-env.js";

const TARGET = { image: "node:20-bookworm", name: "patchgate-abc", user: "1000:1000", hasGit: true };
const ENV = [
  "-e",
  "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
  "-e",
  "HOME=/tmp/home",
  "-e",
  "LANG=C.UTF-8",
  "-e",
  "TERM=dumb",
  "-e",
  "CI=true",
];

describe("buildDockerArgv", () => {
  test("the test step: no network, read-only root, limits, only the allowlisted env", () => {
    const run = prepareRun({
      argv: ["npm", "test"],
      workspace: "/data/ws/s1",
      timeoutMs: 1000,
      env: { NODE_ENV: "test", GITHUB_TOKEN: "ghs_x" },
      limits: { maxProcesses: 256, memoryBytes: 2048 * 1024 * 1024, diskBytes: 512 * 1024 * 1024, cpuSeconds: 60 },
    });
    expect(["docker", ...buildDockerArgv(run, TARGET)]).toEqual([
      "docker",
      "run",
      "--rm",
      "--name",
      "patchgate-abc",
      "--network",
      "none",
      "--read-only",
      "--tmpfs",
      "/tmp:rw,exec,nosuid,mode=1777,size=536870912",
      "--pids-limit",
      "256",
      "--memory",
      "2048m",
      "--memory-swap",
      "2048m",
      "--cpus",
      "1",
      "--ulimit",
      "fsize=536870912:536870912",
      "--ulimit",
      "cpu=60:61",
      "--cap-drop",
      "ALL",
      "--security-opt",
      "no-new-privileges",
      "--user",
      "1000:1000",
      ...ENV,
      "-e",
      "NODE_ENV=test",
      // A run without network tells the package managers so (offline-env.ts).
      ...Object.entries(OFFLINE_ENV).flatMap(([k, v]) => ["-e", `${k}=${v}`]),
      "-v",
      "/data/ws/s1:/workspace",
      "-v",
      "/data/ws/s1/.git:/workspace/.git:ro",
      "-w",
      "/workspace",
      "node:20-bookworm",
      "npm",
      "test",
    ]);
  });

  test("the setup step with network (none: it gets the egress proxy's socket), a cwd, no .git, memory rounded up to whole MiB", () => {
    const run = prepareRun({ argv: ["npm", "ci"], workspace: "/ws", cwd: "app", timeoutMs: 1000, network: true, limits: { memoryBytes: 1000 } });
    expect(buildDockerArgv(run, { ...TARGET, hasGit: false })).toEqual([
      "run",
      "--rm",
      "--name",
      "patchgate-abc",
      "--network",
      "none",
      "--read-only",
      "--tmpfs",
      "/tmp:rw,exec,nosuid,mode=1777,size=1000",
      "--pids-limit",
      "256",
      "--memory",
      "1m",
      "--memory-swap",
      "1m",
      "--cpus",
      "1",
      "--ulimit",
      "fsize=2147483648:2147483648",
      "--ulimit",
      "cpu=300:301",
      "--cap-drop",
      "ALL",
      "--security-opt",
      "no-new-privileges",
      "--user",
      "1000:1000",
      ...ENV,
      "-v",
      "/ws:/workspace",
      "-w",
      "/workspace/app",
      "node:20-bookworm",
      "npm",
      "ci",
    ]);
  });

  test("readOnlyWorkspace mounts the workspace :ro", () => {
    const run = prepareRun({ argv: ["cat", "a"], workspace: "/ws", timeoutMs: 1000, readOnlyWorkspace: true });
    const argv = buildDockerArgv(run, { ...TARGET, hasGit: false });
    expect(argv.slice(argv.indexOf("-v"), argv.indexOf("-v") + 2)).toEqual(["-v", "/ws:/workspace:ro"]);
  });

  test("the docker client gets how to reach the engine and nothing else", () => {
    const env = { HOME: "/home/app", DOCKER_HOST: "unix:///run/docker.sock", GITHUB_TOKEN: "ghs_x", OPENAI_API_KEY: "sk-x", PATH: "/evil" };
    expect(dockerClientEnv(env)).toEqual({ PATH: "/usr/local/bin:/usr/bin:/bin", HOME: "/home/app", DOCKER_HOST: "unix:///run/docker.sock" });
  });
});
