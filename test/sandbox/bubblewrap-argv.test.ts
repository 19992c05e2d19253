import { buildBubblewrapArgv, type BwrapHost } from "../../src/sandbox/bubblewrap-argv.js";
import { OFFLINE_ENV } from "../../src/sandbox/offline-env.js";
import { prepareRun } from "../../src/sandbox/prepare-run.js";
import { nodeBinding } from "../../src/sandbox/toolchain-binding.js";

const HOST: BwrapHost = { mounts: [], hasGit: true, hostsFile: "/run/pg/hosts", prlimit: "/usr/bin/prlimit" };
const ENV = [
  "--setenv",
  "PATH",
  "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
  "--setenv",
  "HOME",
  "/tmp/home",
  "--setenv",
  "LANG",
  "C.UTF-8",
  "--setenv",
  "TERM",
  "dumb",
  "--setenv",
  "CI",
  "true",
];
const SYSTEM = (memory: number) => [
  "--ro-bind",
  "/usr",
  "/usr",
  "--symlink",
  "usr/bin",
  "/bin",
  "--symlink",
  "usr/lib",
  "/lib",
  "--symlink",
  "usr/lib64",
  "/lib64",
  "--symlink",
  "usr/sbin",
  "/sbin",
  "--proc",
  "/proc",
  "--dev",
  "/dev",
  "--size",
  String(memory),
  "--tmpfs",
  "/tmp",
  "--dir",
  "/tmp/home",
];
const ETC = [
  "--ro-bind-try",
  "/etc/passwd",
  "/etc/passwd",
  "--ro-bind-try",
  "/etc/group",
  "/etc/group",
  "--ro-bind-try",
  "/etc/ld.so.cache",
  "/etc/ld.so.cache",
  "--ro-bind-try",
  "/etc/alternatives",
  "/etc/alternatives",
  "--ro-bind",
  "/run/pg/hosts",
  "/etc/hosts",
];
const HARDENING = ["--die-with-parent", "--new-session", "--cap-drop", "ALL", "--hostname", "patchgate-sandbox", "--clearenv"];

describe("buildBubblewrapArgv", () => {
  test("the test step: no network, workspace writable at /workspace, .git read-only, limits via prlimit", () => {
    const run = prepareRun({
      argv: ["npm", "test"],
      workspace: "/data/ws/s1",
      timeoutMs: 1000,
      limits: { maxProcesses: 128, memoryBytes: 1 << 30, diskBytes: 1 << 29, cpuSeconds: 60 },
    });
    expect(buildBubblewrapArgv(run, HOST)).toEqual([
      "--unshare-all",
      ...HARDENING,
      ...ENV,
      // A run without network tells the package managers so (offline-env.ts).
      ...Object.entries(OFFLINE_ENV).flatMap(([k, v]) => ["--setenv", k, v]),
      ...SYSTEM(1 << 29),
      // Where each command's writable layer is mounted (run-overlay.ts).
      "--dir",
      "/run/patchgate-disk",
      ...ETC,
      "--bind",
      "/data/ws/s1",
      "/workspace",
      "--ro-bind",
      "/data/ws/s1/.git",
      "/workspace/.git",
      "--remount-ro",
      "/",
      "--chdir",
      "/workspace",
      "--",
      "/usr/bin/prlimit",
      "--nproc=128",
      "--data=1073741824",
      "--fsize=536870912",
      "--cpu=60:61",
      "--",
      "npm",
      "test",
    ]);
  });

  test("/tmp is as large as the smaller of the memory and disk limits", () => {
    const size = (limits: { memoryBytes: number; diskBytes: number }) => {
      const argv = buildBubblewrapArgv(prepareRun({ argv: ["true"], workspace: "/ws", timeoutMs: 1000, limits }), HOST);
      return argv[argv.indexOf("--size") + 1];
    };
    expect([size({ memoryBytes: 100, diskBytes: 50 }), size({ memoryBytes: 50, diskBytes: 100 })]).toEqual(["50", "50"]);
  });

  test("the setup step with network: still its own network namespace (the egress proxy is its way out), CA files, no resolver, never /etc/ssl/private", () => {
    const run = prepareRun({ argv: ["npm", "ci"], workspace: "/ws", timeoutMs: 1000, network: true });
    const argv = buildBubblewrapArgv(run, { ...HOST, hasGit: false });
    expect(argv[0]).toBe("--unshare-all");
    expect(argv).not.toContain("--share-net");
    const netBinds = argv.flatMap((a, i) => (a === "--ro-bind-try" && !ETC.includes(argv[i + 1]) ? [argv[i + 1]] : []));
    expect(netBinds).toEqual(["/etc/ssl/certs", "/etc/ssl/openssl.cnf", "/etc/ca-certificates", "/etc/pki/tls/certs", "/etc/pki/ca-trust"]);
    expect(argv).not.toContain("/ws/.git");
  });

  test("a node outside /usr: its binary and npm read-only at the same path, npm's link recreated, its bin first on PATH", () => {
    const binding = nodeBinding({
      binary: "/opt/node/bin/node",
      links: [{ path: "/opt/node/bin/npm", target: "../lib/node_modules/npm/bin/npm-cli.js" }],
      packages: ["/opt/node/lib/node_modules/npm"],
      libraries: ["/opt/node/lib/libnode.so.115"],
    });
    const run = prepareRun({ argv: ["node", "t.js"], workspace: "/ws/", cwd: "pkg/a/", timeoutMs: 1000 }, binding.pathDirs);
    const argv = buildBubblewrapArgv(run, { ...HOST, mounts: binding.mounts });
    expect(argv.slice(argv.indexOf("PATH") + 1, argv.indexOf("PATH") + 2)).toEqual([
      "/opt/node/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    ]);
    const toolchain = argv.slice(argv.indexOf("/etc/hosts") + 1, argv.indexOf("--bind"));
    expect(toolchain).toEqual([
      "--ro-bind",
      "/opt/node/bin/node",
      "/opt/node/bin/node",
      "--ro-bind",
      "/opt/node/lib/libnode.so.115",
      "/opt/node/lib/libnode.so.115",
      "--ro-bind",
      "/opt/node/lib/node_modules/npm",
      "/opt/node/lib/node_modules/npm",
      "--symlink",
      "../lib/node_modules/npm/bin/npm-cli.js",
      "/opt/node/bin/npm",
    ]);
    expect(argv).not.toContain("/opt/node");
    expect(argv.slice(argv.indexOf("--chdir"), argv.indexOf("--chdir") + 2)).toEqual(["--chdir", "/workspace/pkg/a"]);
    expect(argv.slice(argv.indexOf("--bind"), argv.indexOf("--bind") + 3)).toEqual(["--bind", "/ws", "/workspace"]);
  });

  test("readOnlyWorkspace binds the workspace read-only, at the same place in the order", () => {
    const run = prepareRun({ argv: ["cat", "a"], workspace: "/ws", timeoutMs: 1000, readOnlyWorkspace: true });
    const argv = buildBubblewrapArgv(run, HOST);
    expect(argv).not.toContain("--bind");
    expect(argv.slice(argv.indexOf("/etc/hosts") + 1, argv.indexOf("--remount-ro"))).toEqual([
      "--ro-bind",
      "/ws",
      "/workspace",
      "--ro-bind",
      "/ws/.git",
      "/workspace/.git",
    ]);
  });

  test("with a cgroup handshake, bwrap reports its child and waits before the command starts", () => {
    const run = prepareRun({ argv: ["true"], workspace: "/ws", timeoutMs: 1000 });
    const argv = buildBubblewrapArgv(run, { ...HOST, handshakeFds: { info: 3, block: 4 } });
    expect(argv.slice(0, 5)).toEqual(["--unshare-all", "--info-fd", "3", "--block-fd", "4"]);
  });

  test.each([
    [{ argv: [] }, "argv is empty"],
    [{ workspace: "rel/ws" }, "workspace must be absolute: rel/ws"],
    [{ cwd: "../x" }, "cwd leaves the workspace: ../x"],
    [{ cwd: "a/../../x" }, "cwd leaves the workspace: a/../../x"],
    [{ timeoutMs: 0 }, "timeoutMs must be positive: 0"],
    [{ limits: { maxProcesses: 1.5 } }, "limits.maxProcesses must be a positive integer: 1.5"],
  ])("invalid request %j is refused: %s", (patch, message) => {
    expect(() => prepareRun({ argv: ["true"], workspace: "/ws", timeoutMs: 1000, ...patch })).toThrow(message);
  });
});
