import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sessionExtras } from "../../src/agent/session-sandbox.js";
import { cloneWorkspace } from "../../src/workspace/clone.js";
import { mirrorPath } from "../../src/workspace/mirror.js";
import { bubblewrap } from "../sandbox/sandbox-fixture.js";
import { cleanupTempDirs, makeSource, sh, tempDir, write } from "./git-fixtures.js";
import { startGitHttpServer, type GitHttpServer } from "./http-git-server.js";

/**
 * Tenants never share on disk: installation 1's private `acme/widgets` is mirrored; the name then
 * goes to another repository of installation 2 (mallory's), served at the same URL. Her session's
 * clone, and any command in her sandbox, finds none of installation 1's objects.
 */
const basic = `Basic ${Buffer.from("x-access-token:ghs_t").toString("base64")}`;
const auth = { header: `Authorization: ${basic}` };
const SECRET = "deploy_password=hunter2-of-installation-1";
let server: GitHttpServer;
let served: string;
let url: string;
let mirrors: { root: string };

beforeEach(async () => {
  const root = tempDir("pg-http-");
  served = join(root, "acme", "widgets.git");
  server = await startGitHttpServer(root, basic);
  url = `${server.url}/acme/widgets.git`;
  mirrors = { root: join(tempDir("pg-data-"), "mirrors") };
});
afterEach(async () => {
  await server.close();
  cleanupTempDirs();
});

/** Serves `src` as `acme/widgets` from now on (the name handed to whoever owns `src`). */
function serve(src: string): void {
  rmSync(served, { recursive: true, force: true });
  sh(src, "clone", "--quiet", "--bare", "--no-local", src, served);
}

/** Every object a repository's git can read, with content. */
const allObjects = (gitDir: string) =>
  execFileSync("git", ["cat-file", "--batch-all-objects", "--batch"], { cwd: gitDir, encoding: "latin1", maxBuffer: 64 << 20 });

test("a repository that takes over a name finds none of the previous owner's objects, in its clone or from its sandbox", async () => {
  const theirs = makeSource();
  write(theirs.dir, "deploy.env", `${SECRET}\n`);
  sh(theirs.dir, "add", "deploy.env");
  sh(theirs.dir, "commit", "--quiet", "-m", "deploy settings");
  serve(theirs.dir);
  const first = await cloneWorkspace({
    source: url,
    dir: join(tempDir(), "i1"),
    auth,
    mirror: { settings: mirrors, tenant: { installationId: 1, repoId: 11 } },
  });
  expect(allObjects(first.root)).toContain(SECRET);

  const hers = makeSource();
  serve(hers.dir);
  const ws = await cloneWorkspace({ source: url, dir: join(tempDir(), "i2"), auth, mirror: { settings: mirrors, tenant: { installationId: 2, repoId: 22 } } });
  expect(ws.baseCommit).toBe(hers.head);
  expect(allObjects(ws.root)).not.toContain(SECRET);
  expect(existsSync(join(ws.root, ".git/objects/info/alternates"))).toBe(false);
  // Two tenants, two mirrors; hers never fetched installation 1's refs.
  expect(
    readdirSync(mirrors.root)
      .filter((n) => n.endsWith(".git"))
      .sort(),
  ).toEqual(["i1-r11.git", "i2-r22.git"]);
  expect(allObjects(mirrorPath(mirrors.root, { installationId: 2, repoId: 22 }))).not.toContain(SECRET);

  // Her test command, run as the session runs it.
  const sandbox = await bubblewrap();
  const r = await sandbox.run({
    argv: ["git", "cat-file", "--batch-all-objects", "--batch"],
    workspace: ws.root,
    timeoutMs: 20_000,
    session: sessionExtras(null, undefined),
  });
  expect(r.exitCode).toBe(0);
  expect(r.stdout).not.toContain(SECRET);
});

test("a clone whose .git is made to read objects from elsewhere is refused before git reads them", async () => {
  const src = makeSource();
  serve(src.dir);
  const other = makeSource();
  const cases: [string, (gitDir: string) => void][] = [
    ["alternates", (g) => writeFileSync(join(g, "objects/info/alternates"), `${join(other.dir, ".git/objects")}\n`)],
    ["commondir", (g) => writeFileSync(join(g, "commondir"), `${join(other.dir, ".git")}\n`)],
    [
      "a symlinked pack",
      (g) => {
        const pack = readdirSync(join(other.dir, ".git/objects/pack"))[0] ?? "pack-0.pack";
        mkdirSync(join(g, "objects/pack"), { recursive: true });
        symlinkSync(join(other.dir, ".git/objects/pack", pack), join(g, "objects/pack", "pack-planted.pack"));
      },
    ],
    [
      "a symlinked object directory",
      (g) => {
        rmSync(join(g, "objects"), { recursive: true, force: true });
        symlinkSync(join(other.dir, ".git/objects"), join(g, "objects"));
      },
    ],
  ];
  const refused: [string, string][] = [];
  for (const [what, plant] of cases) {
    const ws = await cloneWorkspace({ source: url, dir: join(tempDir(), what.replace(/ /g, "-")), auth });
    plant(join(ws.root, ".git"));
    refused.push([
      what,
      await ws.treeHash().then(
        () => "read",
        (e: { code?: string }) => e.code ?? "other error",
      ),
    ]);
  }
  expect(refused).toEqual(cases.map(([what]) => [what, "unsafe_config"]));
});
