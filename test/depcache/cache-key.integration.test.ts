import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cacheKey, setupInputBlobs } from "../../src/depcache/cache-key.js";
import { makeRepo } from "../helpers/git-fixture.js";

describe("dependency cache key", () => {
  const repo = makeRepo({
    "package.json": '{"name":"x","scripts":{"postinstall":"node tools/fetch.js"}}\n',
    "package-lock.json": "{}\n",
    "tools/fetch.js": "1\n",
    "README.md": "hello\n",
    "src/a.js": "a\n",
    "setup.sh": "npm ci\n",
  });
  afterAll(() => repo.cleanup());
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo.dir, encoding: "utf8" }).trim();
  const commit = (file: string, text: string) => {
    writeFileSync(join(repo.dir, file), text);
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", `change ${file}`);
    return git("rev-parse", "HEAD");
  };
  const key = async (rev: string, command = "npm ci", repoId = "cli:/r", toolchains = [{ name: "node", version: "20.11.0", path: "/usr/bin" }]) =>
    cacheKey({ repo: repoId, command, toolchains }, await setupInputBlobs(repo.dir, rev, command));

  test("the setup inputs are the manifests, lockfiles and the files setup and install scripts name", async () => {
    const blobs = await setupInputBlobs(repo.dir, "HEAD", "sh setup.sh");
    expect(blobs.map((b) => b.split(" ").at(-1))).toEqual(["package-lock.json", "package.json", "setup.sh", "tools/fetch.js"]);
  });

  test("changes with a lockfile, a named script, the command, the repository or a toolchain; not with other files", async () => {
    const base = git("rev-parse", "HEAD");
    const k0 = await key(base);
    expect(k0).toMatch(/^[0-9a-f]{40}$/);
    expect(await key(base)).toBe(k0);
    expect(await key(commit("README.md", "changed\n"))).toBe(k0);
    expect(await key(commit("src/a.js", "b\n"))).toBe(k0);
    const afterLock = await key(commit("package-lock.json", '{"v":2}\n'));
    expect(afterLock).not.toBe(k0);
    expect(await key(commit("tools/fetch.js", "2\n"))).not.toBe(afterLock);
    const head = git("rev-parse", "HEAD");
    const k1 = await key(head);
    expect(await key(head, "npm install")).not.toBe(k1);
    expect(await key(head, "npm ci", "cli:/other")).not.toBe(k1);
    expect(await key(head, "npm ci", "cli:/r", [{ name: "node", version: "22.1.0", path: "/usr/bin" }])).not.toBe(k1);
  });
});
