import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { readPins } from "../../src/toolchain/pins.js";
import { tempWorkspace } from "../sandbox/sandbox-fixture.js";
import { file } from "./layouts.js";

describe("the versions a repository pins", () => {
  let ws: { dir: string; cleanup: () => void };
  beforeEach(() => (ws = tempWorkspace("pg-pins-")));
  afterEach(() => ws.cleanup());
  const write = (files: Record<string, string>) => Object.entries(files).forEach(([p, c]) => file(join(ws.dir, p), c));

  test("each toolchain's own file, go.mod's two lines, packageManager", async () => {
    write({
      "rust-toolchain.toml": '# pinned for CI\n[toolchain]\nchannel = "1.80.0"\ncomponents = ["clippy"]\n',
      ".python-version": "# first line that counts\n3.12\n3.11\n",
      ".nvmrc": "lts/iron # the LTS\n",
      "go.mod": "module example.com/m\n\ngo 1.22\n\ntoolchain go1.22.3\n",
      "package.json": '{"name":"x","packageManager":"pnpm@8.15.0+sha512.abc"}',
    });
    expect(await readPins(ws.dir)).toEqual([
      { name: "rust", spec: "1.80.0", source: "rust-toolchain.toml", rule: "prefix" },
      { name: "python", spec: "3.12", source: ".python-version", rule: "prefix" },
      { name: "node", spec: "lts/iron", source: ".nvmrc", rule: "prefix" },
      { name: "go", spec: "1.22", source: "go.mod", rule: "at_least" },
      { name: "go", spec: "1.22.3", source: "go.mod toolchain", rule: "prefix", optional: true },
      { name: "pnpm", spec: "8.15.0", source: "package.json packageManager", rule: "major" },
    ]);
  });

  test("package.json: Volta's node before engines.node; engines only in the forms that name one line", async () => {
    const nodePin = async (pkg: object) => {
      write({ "package.json": JSON.stringify(pkg) });
      return (await readPins(ws.dir)).filter((p) => p.name === "node");
    };
    expect(await nodePin({ volta: { node: "22.14.0" }, engines: { node: ">=18" } })).toEqual([
      { name: "node", spec: "22.14.0", source: "package.json volta", rule: "prefix" },
    ]);
    const engines = async (range: string) => (await nodePin({ engines: { node: range } })).map((p) => `${p.spec} ${p.rule}`);
    expect(await engines(">=20.9.0")).toEqual(["20.9.0 at_least"]);
    expect(await engines("^22.14.0")).toEqual(["22.14.0 major"]);
    expect(await engines("22.x")).toEqual(["22 major"]);
    expect(await engines("~22.14.1")).toEqual(["22.14 prefix"]);
    expect(await engines("22")).toEqual(["22 prefix"]);
    for (const range of ["^18 || ^20", ">=18 <21", "*", "latest"]) expect(await engines(range)).toEqual([]);
    // A file of the toolchain's own wins over package.json.
    write({ ".nvmrc": "20\n", "package.json": JSON.stringify({ volta: { node: "22.14.0" } }) });
    expect((await readPins(ws.dir)).filter((p) => p.name === "node").map((p) => p.source)).toEqual([".nvmrc"]);
  });

  test("the old rust-toolchain file, .node-version, asdf's .tool-versions and mise.toml; the first pin of a toolchain wins", async () => {
    write({
      "rust-toolchain": "nightly-2026-05-19\n",
      ".node-version": "20.11.0\n",
      ".tool-versions": "nodejs 18.0.0\ngolang 1.21.5\nruby 3.3.0 # docs\n",
      "mise.toml": '[tools]\npython = "3.11"\ngo = "1.20"\n',
    });
    expect(await readPins(ws.dir)).toEqual([
      { name: "rust", spec: "nightly-2026-05-19", source: "rust-toolchain", rule: "prefix" },
      { name: "node", spec: "20.11.0", source: ".node-version", rule: "prefix" },
      { name: "go", spec: "1.21.5", source: ".tool-versions", rule: "prefix" },
      { name: "ruby", spec: "3.3.0", source: ".tool-versions", rule: "prefix" },
      { name: "python", spec: "3.11", source: "mise.toml", rule: "prefix" },
    ]);
  });

  test("a pin naming a path, a broken file or a non-version is an error, never a directory to bind", async () => {
    write({
      "rust-toolchain.toml": '[toolchain]\npath = "/opt/my-rust"\n',
      ".python-version": "../../../etc\n",
      ".tool-versions": "nodejs path:/home/dev/node\n",
    });
    const pins = await readPins(ws.dir);
    expect(pins.map((p) => [p.name, p.error])).toEqual([
      ["rust", "rust-toolchain.toml names a toolchain by path; Patchgate binds only toolchains installed on the host"],
      ["python", '.python-version asks for "../../../etc", which is not a version'],
      ["node", ".tool-versions asks for nodejs path:/home/dev/node; Patchgate binds only installed versions"],
    ]);
    write({ ".tool-versions": "../../project v1\n", "rust-toolchain.toml": "", ".python-version": "" });
    expect((await readPins(ws.dir)).map((p) => p.error)).toEqual(['.tool-versions names the tool "../../project", which is not a tool name']);
    write({ "rust-toolchain.toml": "[toolchain\nchannel = 1" });
    expect((await readPins(ws.dir))[0].error).toMatch(/^rust-toolchain.toml is not valid TOML: /);
  });

  test("a pin file that is a symlink is not followed: no host file's first line reaches the ledger", async () => {
    const outside = tempWorkspace("pg-pins-outside-");
    try {
      file(join(outside.dir, "secret"), "hunter2-secret-value\n");
      symlinkSync(join(outside.dir, "secret"), join(ws.dir, ".python-version"));
      symlinkSync(join(outside.dir, "secret"), join(ws.dir, ".nvmrc"));
      expect(await readPins(ws.dir)).toEqual([]);
    } finally {
      outside.cleanup();
    }
  });
});
