import { mkdirSync, readFileSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { cloneWorkspace, openWorkspace } from "../../src/workspace/clone.js";
import { WorkspaceError } from "../../src/workspace/workspace-error.js";
import { splitCredentials } from "../../src/workspace/remote-url.js";
import { cleanupTempDirs, makeSource, sh, tempDir, write } from "./git-fixtures.js";

afterEach(cleanupTempDirs);

async function codeOf(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  if (!WorkspaceError.isInstance(e)) throw new Error(`expected a WorkspaceError, got ${String(e)}`);
  return e.code;
}

test("clone by path checks out the remote HEAD and records it as the base", async () => {
  const src = makeSource();
  const dir = join(tempDir(), "ws");
  const ws = await cloneWorkspace({ source: src.dir, dir });
  expect([ws.root, ws.baseCommit]).toEqual([realpathSync(dir), src.head]);
  expect(readFileSync(join(dir, "src/parse.txt"), "utf8")).toBe("line one\nline two\nline three\n");
  expect(sh(dir, "rev-parse", "HEAD")).toBe(src.head);
});

test("the root is the realpath even when dir goes through a symlink", async () => {
  const src = makeSource();
  const real = tempDir();
  const link = join(tempDir(), "link");
  symlinkSync(real, link);
  const ws = await cloneWorkspace({ source: src.dir, dir: join(link, "ws") });
  expect(ws.root).toBe(join(realpathSync(real), "ws"));
});

describe("ref", () => {
  test.each([
    ["a branch", "feature"],
    ["a tag", "v1"],
    ["a commit id", "SHA"],
    ["a ref only reachable by fetch", "refs/pull/1/head"],
  ])("checks out %s detached", async (_what, ref) => {
    const src = makeSource();
    sh(src.dir, "checkout", "--quiet", "-b", "feature");
    write(src.dir, "feature.txt", "f\n");
    sh(src.dir, "add", "-A");
    sh(src.dir, "commit", "--quiet", "-m", "feature");
    const feature = sh(src.dir, "rev-parse", "HEAD");
    sh(src.dir, "tag", "v1");
    sh(src.dir, "update-ref", "refs/pull/1/head", "HEAD");
    sh(src.dir, "checkout", "--quiet", "main");
    const dir = join(tempDir(), "ws");
    const ws = await cloneWorkspace({ source: src.dir, dir, ref: ref === "SHA" ? feature : ref });
    expect(ws.baseCommit).toBe(feature);
    expect(sh(dir, "rev-parse", "HEAD")).toBe(feature);
    expect(readFileSync(join(dir, "feature.txt"), "utf8")).toBe("f\n");
  });

  test("an unknown ref fails the clone", async () => {
    const src = makeSource();
    expect(await codeOf(cloneWorkspace({ source: src.dir, dir: join(tempDir(), "ws"), ref: "nope" }))).toBe("git_failed");
  });

  test("a ref that looks like an option is refused", async () => {
    const src = makeSource();
    expect(await codeOf(cloneWorkspace({ source: src.dir, dir: join(tempDir(), "ws"), ref: "--upload-pack=x" }))).toBe("invalid_argument");
  });
});

test("a non-empty target is refused; an existing empty one is used", async () => {
  const src = makeSource();
  const full = tempDir();
  write(full, "keep.txt", "x");
  expect(await codeOf(cloneWorkspace({ source: src.dir, dir: full }))).toBe("dir_not_empty");
  const empty = join(tempDir(), "empty");
  mkdirSync(empty);
  expect((await cloneWorkspace({ source: src.dir, dir: empty })).baseCommit).toBe(src.head);
});

test("an aborted signal stops the clone with an AbortError", async () => {
  const src = makeSource();
  const err = await cloneWorkspace({ source: src.dir, dir: join(tempDir(), "ws"), signal: AbortSignal.abort() }).catch((e: unknown) => e);
  expect((err as Error).name).toBe("AbortError");
});

describe("openWorkspace", () => {
  test("reopens a clone with its recorded base", async () => {
    const src = makeSource();
    const dir = join(tempDir(), "ws");
    const first = await cloneWorkspace({ source: src.dir, dir });
    write(dir, "new.txt", "n\n");
    const again = await openWorkspace(dir, first.baseCommit);
    expect([again.root, again.baseCommit]).toEqual([first.root, first.baseCommit]);
    expect(await again.treeHash()).toBe(await first.treeHash());
  });

  test("refuses a base that is not a full commit id of the clone", async () => {
    const src = makeSource();
    const dir = join(tempDir(), "ws");
    await cloneWorkspace({ source: src.dir, dir });
    expect(await codeOf(openWorkspace(dir, src.head.slice(0, 12)))).toBe("invalid_argument");
    expect(await codeOf(openWorkspace(dir, "f".repeat(40)))).toBe("invalid_argument");
  });

  test("refuses a directory inside the clone", async () => {
    const src = makeSource();
    const dir = join(tempDir(), "ws");
    await cloneWorkspace({ source: src.dir, dir });
    expect(await codeOf(openWorkspace(join(dir, "src"), src.head))).toBe("invalid_argument");
  });
});

describe("credentials in the source URL", () => {
  test("move into a Basic auth header and out of the URL", () => {
    const { url, auth } = splitCredentials("https://x-access-token:s3cr%40t@github.example/acme/widgets.git");
    expect(url).toBe("https://github.example/acme/widgets.git");
    expect(auth).toEqual({ header: `Authorization: Basic ${Buffer.from("x-access-token:s3cr@t").toString("base64")}` });
  });

  test("paths and plain URLs pass through with the given auth", () => {
    const auth = { header: "Authorization: Bearer t" };
    expect(splitCredentials("/srv/repo", auth)).toEqual({ url: "/srv/repo", auth });
    expect(splitCredentials("https://github.example/a/b.git")).toEqual({ url: "https://github.example/a/b.git", auth: undefined });
  });

  test("credentials in both places are refused", () => {
    expect(() => splitCredentials("https://u:p@h/r.git", { header: "x" })).toThrow("credentials both in the URL and in auth");
  });
});
