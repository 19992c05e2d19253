import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildBubblewrapArgv } from "../../src/sandbox/bubblewrap-argv.js";
import { buildDockerArgv } from "../../src/sandbox/docker-argv.js";
import { prepareRun } from "../../src/sandbox/prepare-run.js";
import { sessionCacheDir } from "../../src/sandbox/session-cache.js";
import { stateEnv } from "../../src/sandbox/run-state.js";
import { sessionMounts } from "../../src/sandbox/session-mounts.js";
import { tempWorkspace } from "./sandbox-fixture.js";

describe("a session's mounts", () => {
  const tmp = tempWorkspace("pg-smounts-");
  afterAll(() => tmp.cleanup());

  test("toolchain directories read-only, credential files inside masked (files by an empty file, directories by an empty tmpfs), the cache read-only for a command", async () => {
    const prefix = join(tmp.dir, "node-v20");
    mkdirSync(join(prefix, "etc"), { recursive: true });
    mkdirSync(join(prefix, ".ssh"));
    writeFileSync(join(prefix, "etc", "npmrc"), "//registry/:_authToken=x\n");
    const mounts = await sessionMounts({ binds: [prefix], pathDirs: [join(prefix, "bin")], cacheDir: "/data/cache/s1" }, "command");
    const empty = mounts.find((m) => m.kind === "bind" && m.readOnly)!;
    expect(empty.kind === "bind" && readFileSync(empty.source, "utf8")).toBe("");
    expect(empty.kind === "bind" && statSync(empty.source).mode & 0o222).toBe(0);
    expect(mounts).toEqual([
      { kind: "ro-bind", path: prefix },
      { kind: "mask-dir", path: join(prefix, ".ssh") },
      { kind: "bind", source: expect.any(String), path: join(prefix, "etc", "npmrc"), readOnly: true },
      { kind: "bind", source: "/data/cache/s1", path: "/cache", readOnly: true },
    ]);
    const run = prepareRun(
      {
        argv: ["true"],
        workspace: "/ws",
        timeoutMs: 1000,
        session: { binds: [prefix], pathDirs: [join(prefix, "bin")], env: { npm_config_cache: "/cache/npm", "BAD KEY": "x" } },
      },
      [join(prefix, "bin")],
    );
    expect(run.env).toMatchObject({ PATH: `${prefix}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`, npm_config_cache: "/cache/npm" });
    expect(run.env["BAD KEY"]).toBeUndefined();
    const bwrap = buildBubblewrapArgv(run, { mounts, hasGit: false, hostsFile: "/run/pg/hosts", prlimit: "/usr/bin/prlimit" }).join(" ");
    expect(bwrap).toContain(
      `--ro-bind ${prefix} ${prefix} --size 4096 --tmpfs ${prefix}/.ssh --remount-ro ${prefix}/.ssh --ro-bind ${(empty as { source: string }).source} ${prefix}/etc/npmrc --ro-bind /data/cache/s1 /cache --bind /ws /workspace`,
    );
    const docker = buildDockerArgv(run, { image: "img", name: "n", user: "0:0", hasGit: false, mounts }).join(" ");
    expect(docker).toContain(
      `-v ${prefix}:${prefix}:ro --tmpfs ${prefix}/.ssh:ro,size=4k -v ${(empty as { source: string }).source}:${prefix}/etc/npmrc:ro -v /data/cache/s1:/cache:ro -v /ws:/workspace`,
    );
  });

  test("the cache directory is per session, under its root, and refuses ids that would leave it", async () => {
    const dir = await sessionCacheDir(tmp.dir, "s-1");
    expect(dir).toBe(join(tmp.dir, "s-1"));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    await expect(sessionCacheDir(tmp.dir, "../escape")).rejects.toThrow("not a session id");
    await expect(sessionCacheDir("relative", "s-1")).rejects.toThrow("cache root must be absolute");
    expect(Object.values(stateEnv("setup")).every((v) => v.startsWith("/cache/"))).toBe(true);
    // A command's HOME and the caches it must write are its own, under the per-command /tmp.
    const command = stateEnv("command");
    expect(Object.entries(command).filter(([, v]) => !v.startsWith("/cache/"))).toEqual([
      ["HOME", "/tmp/home"],
      ["XDG_CACHE_HOME", "/tmp/cache"],
      ["GOCACHE", "/tmp/cache/go-build"],
    ]);
  });

  test("the cache is writable for setup alone; a reader's HOME is setup's, read-only, or an empty read-only directory", async () => {
    const extras = { binds: [], pathDirs: [], cacheDir: "/data/cache/s1" };
    expect(await sessionMounts(extras, "setup")).toEqual([{ kind: "bind", source: "/data/cache/s1", path: "/cache", readOnly: false }]);
    expect(await sessionMounts(extras, "read-only")).toEqual([
      { kind: "bind", source: "/data/cache/s1", path: "/cache", readOnly: true },
      { kind: "bind", source: "/data/cache/s1/home", path: "/tmp/home", readOnly: true },
    ]);
    expect(await sessionMounts(undefined, "read-only")).toEqual([{ kind: "mask-dir", path: "/tmp/home" }]);
    expect(await sessionMounts(undefined, "command")).toEqual([]);
  });
});
