import { buildBubblewrapArgv, type BwrapHost } from "../../src/sandbox/bubblewrap-argv.js";
import { prepareRun } from "../../src/sandbox/prepare-run.js";

const HOST: BwrapHost = { extraReadOnly: [], hasGit: true, prlimit: "/usr/bin/prlimit" };
const ENV = ["--setenv", "PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "--setenv", "HOME", "/tmp/home", "--setenv", "LANG", "C.UTF-8", "--setenv", "TERM", "dumb", "--setenv", "CI", "true"];
const SYSTEM = (memory: number) => ["--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/sbin", "/sbin", "--proc", "/proc", "--dev", "/dev", "--size", String(memory), "--tmpfs", "/tmp", "--dir", "/tmp/home"];
const ETC = ["--ro-bind-try", "/etc/passwd", "/etc/passwd", "--ro-bind-try", "/etc/group", "/etc/group", "--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache", "--ro-bind-try", "/etc/alternatives", "/etc/alternatives"];
const HARDENING = ["--die-with-parent", "--new-session", "--cap-drop", "ALL", "--hostname", "patchgate-sandbox", "--clearenv"];

describe("buildBubblewrapArgv", () => {
  test("the test step: no network, workspace writable at /workspace, .git read-only, limits via prlimit", () => {
    const run = prepareRun({ argv: ["npm", "test"], workspace: "/data/ws/s1", timeoutMs: 1000, limits: { maxProcesses: 128, memoryBytes: 1 << 30 } });
    expect(buildBubblewrapArgv(run, HOST)).toEqual([
      "--unshare-all", ...HARDENING, ...ENV, ...SYSTEM(1 << 30), ...ETC,
      "--bind", "/data/ws/s1", "/workspace",
      "--ro-bind", "/data/ws/s1/.git", "/workspace/.git",
      "--remount-ro", "/",
      "--chdir", "/workspace",
      "--", "/usr/bin/prlimit", "--nproc=128", "--data=1073741824", "--", "npm", "test",
    ]);
  });

  test("the setup step with network: --share-net and the DNS/CA files, never /etc/ssl/private", () => {
    const run = prepareRun({ argv: ["npm", "ci"], workspace: "/ws", timeoutMs: 1000, network: true });
    const argv = buildBubblewrapArgv(run, { ...HOST, hasGit: false });
    expect(argv.slice(0, 2)).toEqual(["--unshare-all", "--share-net"]);
    const netBinds = argv.flatMap((a, i) => (a === "--ro-bind-try" && !ETC.includes(argv[i + 1]) ? [argv[i + 1]] : []));
    expect(netBinds).toEqual([
      "/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf", "/etc/host.conf", "/etc/gai.conf",
      "/etc/ssl/certs", "/etc/ssl/openssl.cnf", "/etc/ca-certificates", "/etc/pki/tls/certs", "/etc/pki/ca-trust",
    ]);
    expect(argv).not.toContain("/ws/.git");
  });

  test("a node outside /usr: its prefix read-only at the same path and first on PATH; cwd below the workspace", () => {
    const run = prepareRun({ argv: ["node", "t.js"], workspace: "/ws/", cwd: "pkg/a/", timeoutMs: 1000 }, ["/opt/node/bin"]);
    const argv = buildBubblewrapArgv(run, { ...HOST, extraReadOnly: ["/opt/node"] });
    expect(argv.slice(argv.indexOf("PATH") + 1, argv.indexOf("PATH") + 2)).toEqual(["/opt/node/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"]);
    expect(argv.slice(argv.indexOf("/opt/node") - 1, argv.indexOf("/opt/node") + 2)).toEqual(["--ro-bind", "/opt/node", "/opt/node"]);
    expect(argv.slice(argv.indexOf("--chdir"), argv.indexOf("--chdir") + 2)).toEqual(["--chdir", "/workspace/pkg/a"]);
    expect(argv.slice(argv.indexOf("--bind"), argv.indexOf("--bind") + 3)).toEqual(["--bind", "/ws", "/workspace"]);
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
