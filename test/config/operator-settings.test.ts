import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dependencyCacheIn } from "../../src/config/operator-defaults.js";
import { loadOperatorSettings } from "../../src/config/operator-settings.js";
import { NO_BUDGETS } from "../../src/config/budgets.js";
import { bindRefusal } from "../../src/toolchain/narrow.js";
import { tempWorkspace } from "../sandbox/sandbox-fixture.js";

describe("operator settings: sandbox.toolchains", () => {
  const tmp = tempWorkspace("pg-opset-");
  afterAll(() => tmp.cleanup());
  const home = join(tmp.dir, "home", "op");
  const zig = join(tmp.dir, "opt", "zig");
  mkdirSync(join(zig, "bin"), { recursive: true });
  mkdirSync(join(home, ".local", "bin"), { recursive: true });
  const load = (text: string) => {
    const file = join(tmp.dir, "settings.yml");
    writeFileSync(file, text);
    return () => loadOperatorSettings(file, [home]);
  };

  test("a bin directory (its prefix is bound), JSON too, and an empty file", () => {
    expect(load(`sandbox:\n  toolchains:\n    - bin: ${zig}/bin\n      name: zig\n`)().toolchains).toEqual([{ bin: `${zig}/bin`, name: "zig" }]);
    expect(load(JSON.stringify({ sandbox: { toolchains: [{ bin: `${zig}/bin`, dir: zig }] } }))().toolchains).toHaveLength(1);
    expect(load("")()).toEqual({ toolchains: [], dependencyCacheBytes: 10_240 * 1024 * 1024, registries: [], registrySecrets: [], budgets: NO_BUDGETS });
  });

  test("sandbox.dependency_cache_mb: the cross-session dependency cache's size, 0 turns it off", () => {
    expect(load("sandbox:\n  dependency_cache_mb: 512\n")().dependencyCacheBytes).toBe(512 * 1024 * 1024);
    expect(dependencyCacheIn("/data", load("sandbox:\n  dependency_cache_mb: 512\n")())).toEqual({
      root: "/data/dependency-cache",
      maxBytes: 512 * 1024 * 1024,
    });
    expect(dependencyCacheIn("/data", load("sandbox:\n  dependency_cache_mb: 0\n")())).toBeUndefined();
    expect(load("sandbox:\n  dependency_cache_mb: -1\n")).toThrow("`sandbox.dependency_cache_mb`");
  });

  test("errors name the field: unknown keys, relative or missing paths, bin outside dir, HOME or what contains it", () => {
    expect(load("sandbox:\n  toolchain: []\n")).toThrow('`sandbox` Unrecognized key: "toolchain"');
    expect(load("sandbox:\n  toolchains:\n    - bin: opt/zig/bin\n")).toThrow("`sandbox.toolchains.0.bin` must be an absolute path: opt/zig/bin");
    expect(load(`sandbox:\n  toolchains:\n    - bin: ${tmp.dir}/nope\n`)).toThrow(`\`sandbox.toolchains.0.bin\` is not a directory: ${tmp.dir}/nope`);
    expect(load(`sandbox:\n  toolchains:\n    - bin: ${zig}/bin\n      dir: ${tmp.dir}/opt/zig/bin/..\n    - bin: ${zig}\n      dir: ${zig}/bin\n`)).toThrow(
      `\`sandbox.toolchains.1\`: bin ${zig} is not inside dir ${zig}/bin`,
    );
    // ~/.local/bin's prefix would be ~/.local: allowed, it does not contain HOME; HOME itself never.
    expect(load(`sandbox:\n  toolchains:\n    - bin: ${home}/.local/bin\n`)().toolchains).toHaveLength(1);
    expect(load(`sandbox:\n  toolchains:\n    - bin: ${home}/.local/bin\n      dir: ${home}\n`)).toThrow(
      `\`sandbox.toolchains.0\`: ${home} cannot be bound: it is ${home}`,
    );
    expect(load(`sandbox:\n  toolchains:\n    - bin: ${zig}/bin\n      dir: ${tmp.dir}\n`)).toThrow(`${tmp.dir} cannot be bound: it contains ${home}`);
  });

  test("the bind rule itself: never /, a home, a system directory, or anything containing a protected one", () => {
    const p = ["/srv/patchgate", "/home/dev"];
    expect([bindRefusal("/", p), bindRefusal("/home/alice", p), bindRefusal("/srv", p), bindRefusal("/etc/ssl", p), bindRefusal("rel", p)]).toEqual([
      "it is the root directory",
      "it is a home directory",
      "it contains /srv/patchgate",
      "it is a system directory",
      "rel is not an absolute path",
    ]);
    expect([bindRefusal("/srv/patchgate/node_modules/.bin", p), bindRefusal("/home/dev/.rustup/toolchains/stable", p), bindRefusal("/opt/go", p)]).toEqual([
      null,
      null,
      null,
    ]);
  });
});
