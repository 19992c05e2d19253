import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { buildBubblewrapArgv } from "../../src/sandbox/bubblewrap-argv.js";
import { buildDockerArgv } from "../../src/sandbox/docker-argv.js";
import { prepareRun } from "../../src/sandbox/prepare-run.js";
import { sessionMounts } from "../../src/sandbox/session-mounts.js";
import type { SandboxRunRequest, SessionExtras } from "../../src/sandbox/types.js";
import { tempWorkspace } from "./sandbox-fixture.js";

/**
 * Every host path a run can write, read off the very argv each backend gets: a command's only
 * writable host path is the workspace (its HOME, /tmp and build caches are the run's own tmpfs);
 * a reader's is none; only setup writes the session's cache.
 */
function bwrapWritable(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--") break;
    if (argv[i] === "--bind" || argv[i] === "--bind-try") out.push(`${argv[i + 1]} -> ${argv[i + 2]}`);
  }
  return out;
}

function dockerWritable(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) if (argv[i] === "-v" && !argv[i + 1]!.endsWith(":ro")) out.push(argv[i + 1]!.replace(":", " -> "));
  return out;
}

describe("what a sandboxed run can write on the host", () => {
  const tmp = tempWorkspace("pg-writable-");
  afterAll(() => tmp.cleanup());
  const toolchain = join(tmp.dir, "toolchain");
  mkdirSync(join(toolchain, ".ssh"), { recursive: true });
  const extras: SessionExtras = { binds: [toolchain], pathDirs: [join(toolchain, "bin")], cacheDir: "/data/cache/s1" };

  async function argvs(mode: Partial<SandboxRunRequest>) {
    const run = prepareRun({ argv: ["true"], workspace: "/ws", timeoutMs: 1000, session: extras, ...mode }, extras.pathDirs);
    const mounts = await sessionMounts(extras, run.access);
    return {
      bwrap: buildBubblewrapArgv(run, { mounts, hasGit: true, hostsFile: "/run/pg/hosts", prlimit: "/usr/bin/prlimit" }),
      docker: buildDockerArgv(run, { image: "img", name: "n", user: "0:0", hasGit: true, mounts }),
    };
  }

  test("a command (the model's, a test run): the workspace alone", async () => {
    const { bwrap, docker } = await argvs({});
    expect(bwrapWritable(bwrap)).toEqual(["/ws -> /workspace"]);
    expect(dockerWritable(docker)).toEqual(["/ws -> /workspace"]);
  });

  test("a reader: nothing, HOME included", async () => {
    const { bwrap, docker } = await argvs({ readOnlyWorkspace: true });
    expect(bwrapWritable(bwrap)).toEqual([]);
    expect(dockerWritable(docker)).toEqual([]);
    expect(bwrap.join(" ")).toContain("--ro-bind /data/cache/s1/home /tmp/home");
    expect(docker.join(" ")).toContain("-v /data/cache/s1/home:/tmp/home:ro");
  });

  test("the setup step: the workspace and the session's cache", async () => {
    const { bwrap, docker } = await argvs({ setup: true });
    expect(bwrapWritable(bwrap)).toEqual(["/data/cache/s1 -> /cache", "/ws -> /workspace"]);
    expect(dockerWritable(docker)).toEqual(["/data/cache/s1 -> /cache", "/ws -> /workspace"]);
  });
});
