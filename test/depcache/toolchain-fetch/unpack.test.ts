import { createHash } from "node:crypto";
import { chmodSync, readFileSync, statSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { treeDifference } from "../../../src/depcache/toolchain-fetch/tree-manifest.js";
import { unpackTarball } from "../../../src/depcache/toolchain-fetch/unpack.js";
import { sha512Integrity } from "../../../src/depcache/toolchain-fetch/registry-download.js";
import { tempWorkspace } from "../../sandbox/sandbox-fixture.js";
import { tarball, type Member } from "./tar-fixture.js";

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const LONG = `package/include/node/${"deep/".repeat(30)}header.h`;

describe("a toolchain package's tarball, unpacked and checked", () => {
  let ws: { dir: string; cleanup: () => void };
  beforeEach(() => (ws = tempWorkspace("pg-unpack-")));
  afterEach(() => ws.cleanup());

  const unpack = async (members: Member[]) => {
    const tgz = join(ws.dir, "p.tgz");
    writeFileSync(tgz, tarball(members));
    return unpackTarball(tgz, join(ws.dir, "tree"));
  };
  const refusal = (members: Member[]) =>
    unpack(members).then(
      () => "unpacked",
      (e: Error) => `${e.name}: ${e.message}`,
    );

  test("regular files below package/, a pax path, modes narrowed to 0755/0644: the manifest names each with its sha256", async () => {
    const files = await unpack([
      { path: "package/", type: "5", mode: 0o755 },
      { path: "package/bin/node", body: "#!node", mode: 0o4775 },
      { path: "package/LICENSE", body: "MIT", mode: 0o666 },
      { path: LONG, body: "#define X 1", pax: true },
    ]);
    expect(files).toEqual([
      { path: "LICENSE", size: 3, sha256: sha256("MIT"), executable: false },
      { path: "bin/node", size: 6, sha256: sha256("#!node"), executable: true },
      { path: LONG.slice("package/".length), size: 11, sha256: sha256("#define X 1"), executable: false },
    ]);
    expect(readFileSync(join(ws.dir, "tree", "bin", "node"), "utf8")).toBe("#!node");
    expect([statSync(join(ws.dir, "tree", "bin", "node")).mode & 0o7777, statSync(join(ws.dir, "tree", "LICENSE")).mode & 0o7777]).toEqual([0o755, 0o644]);
  });

  test("a link, a device, a path leaving the package or a second copy of a path refuses the whole archive", async () => {
    expect(await refusal([{ path: "package/bin/npm", type: "2" }])).toBe(
      'ToolchainFetchError: the archive holds a symbolic link at "package/bin/npm", which a toolchain package never needs',
    );
    expect(await refusal([{ path: "package/x", type: "1" }])).toMatch(/holds a hard link at "package\/x"/);
    expect(await refusal([{ path: "package/null", type: "3" }])).toMatch(/holds a character device/);
    expect(await refusal([{ path: "package/../../etc/cron.d/x", body: "evil" }])).toBe(
      'ToolchainFetchError: the archive names "package/../../etc/cron.d/x", a path that leaves the package',
    );
    expect(await refusal([{ path: "/etc/passwd", body: "evil" }])).toMatch(/a path that leaves the package/);
    expect(
      await refusal([
        { path: "package/a", body: "1" },
        { path: "package/a", body: "2" },
      ]),
    ).toBe('ToolchainFetchError: the archive holds "a" twice');
  });

  test("the tree is checked against its manifest: changed content, mode, an added file, a link or a missing file is named", async () => {
    const files = await unpack([
      { path: "package/bin/node", body: "#!node", mode: 0o755 },
      { path: "package/include/v8.h", body: "int v8;" },
    ]);
    const tree = join(ws.dir, "tree");
    expect(await treeDifference(tree, files)).toBeNull();
    writeFileSync(join(tree, "bin", "node"), "#!evil");
    expect(await treeDifference(tree, files)).toBe("bin/node changed content");
    writeFileSync(join(tree, "bin", "node"), "#!node");
    expect(await treeDifference(tree, files)).toBeNull();
    chmodSync(join(tree, "include", "v8.h"), 0o666);
    expect(await treeDifference(tree, files)).toBe("include/v8.h changed mode");
    chmodSync(join(tree, "include", "v8.h"), 0o644);
    writeFileSync(join(tree, "bin", "npm"), "x");
    expect(await treeDifference(tree, files)).toBe("bin/npm was added");
    unlinkSync(join(tree, "bin", "npm"));
    symlinkSync("/etc/passwd", join(tree, "bin", "npm"));
    expect(await treeDifference(tree, files)).toBe("bin/npm is not a regular file");
    unlinkSync(join(tree, "bin", "npm"));
    unlinkSync(join(tree, "include", "v8.h"));
    expect(await treeDifference(tree, files)).toBe("include/v8.h is missing");
  });

  test("only a sha512 in the registry's integrity counts", () => {
    const sri = `sha512-${Buffer.alloc(64, 7).toString("base64")}`;
    expect(sha512Integrity(sri)).toBe(sri);
    expect(sha512Integrity(`sha1-${Buffer.alloc(20).toString("base64")} ${sri}`)).toBe(sri);
    expect(sha512Integrity(`sha1-${Buffer.alloc(20).toString("base64")}`)).toBeNull();
    expect(sha512Integrity("sha512-short")).toBeNull();
  });
});
