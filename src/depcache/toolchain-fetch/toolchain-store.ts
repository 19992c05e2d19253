import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, realpath, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { ToolchainFetchError } from "./fetch-error.js";
import { downloadVerified, type PackageDist } from "./registry-download.js";
import { rememberUnpacked, treeDifference } from "./tree-manifest.js";
import { unpackTarball, type TreeFile } from "./unpack.js";

/** What `<root>/toolchains/<package>@<version>/meta.json` records of one fetched toolchain. */
interface FetchedMeta {
  package: string;
  version: string;
  registry: string;
  /** The registry's sha512 the tarball was checked against before it was unpacked. */
  integrity: string;
  /** Every file the verified tarball held: a later use checks the tree against it. */
  files: TreeFile[];
  storedAt: string;
}

/** A fetched toolchain ready to bind: its tree (the package's contents) and how it got there. */
export interface FetchedEntry {
  meta: FetchedMeta;
  /** realpath of the unpacked package (`bin/node`, `include/`…): what is bound read-only. */
  tree: string;
}

const NAME = /^[a-z0-9][a-z0-9._-]*$/;
const VERSION = /^\d+\.\d+\.\d+$/;

/**
 * Toolchains fetched from a registry, in the dependency cache's directory beside its entries. They
 * are public content, named by package and version, so one copy serves every session and tenant. An
 * entry is built under `<root>/tmp/` (download, integrity check, unpack, manifest) and renamed into
 * place whole; a reader checks the tree against the manifest before it is used, and an entry that
 * fails is removed (renamed away first) so the caller fetches it again.
 */
export class FetchedToolchainStore {
  constructor(readonly root: string) {}

  private dir(pkg: string, version: string): string {
    if (!NAME.test(pkg) || !VERSION.test(version)) throw new Error(`not a fetched toolchain: ${pkg}@${version}`);
    return path.join(this.root, "toolchains", `${pkg}@${version}`);
  }

  /** The versions of `pkg` held, whatever their state. */
  async versions(pkg: string): Promise<string[]> {
    const names = await readdir(path.join(this.root, "toolchains")).catch(() => [] as string[]);
    return names.flatMap((n) => (n.startsWith(`${pkg}@`) && VERSION.test(n.slice(pkg.length + 1)) ? [n.slice(pkg.length + 1)] : []));
  }

  /** The entry, checked against its manifest: `absent`, `ok`, or `refused` with why (and removed). */
  async open(pkg: string, version: string): Promise<{ kind: "absent" } | { kind: "ok"; entry: FetchedEntry } | { kind: "refused"; why: string }> {
    const dir = this.dir(pkg, version);
    const text = await readFile(path.join(dir, "meta.json"), "utf8").catch(() => null);
    if (text === null) return { kind: "absent" };
    let meta: FetchedMeta | null = null;
    try {
      meta = JSON.parse(text) as FetchedMeta;
    } catch {
      // An unreadable record is a broken entry like any other.
    }
    const why =
      meta && meta.package === pkg && meta.version === version && Array.isArray(meta.files)
        ? await treeDifference(path.join(dir, "tree"), meta.files).catch((e: Error) => `its tree cannot be read (${e.message})`)
        : "its meta.json is not a record of this package";
    if (why !== null || meta === null) {
      await this.remove(dir);
      return { kind: "refused", why: why ?? "its meta.json is unreadable" };
    }
    return { kind: "ok", entry: { meta, tree: await realpath(path.join(dir, "tree")) } };
  }

  /** Downloads, verifies and unpacks `dist` of `pkg`, and puts it in place; an entry another session stored meanwhile stands. */
  async fetch(pkg: string, registry: string, dist: PackageDist, signal?: AbortSignal): Promise<FetchedEntry> {
    const target = this.dir(pkg, dist.version);
    const staging = path.join(this.root, "tmp", `toolchain-${randomBytes(8).toString("hex")}`);
    await mkdir(path.join(staging, "tree"), { recursive: true });
    try {
      const tgz = path.join(staging, "package.tgz");
      await downloadVerified(registry, dist, tgz, signal);
      const files = await unpackTarball(tgz, path.join(staging, "tree"));
      await rm(tgz);
      const meta: FetchedMeta = { package: pkg, version: dist.version, registry, integrity: dist.integrity, files, storedAt: new Date().toISOString() };
      await writeFile(path.join(staging, "meta.json"), JSON.stringify(meta));
      await mkdir(path.dirname(target), { recursive: true });
      // Another session may have stored the same version meanwhile: theirs stands and is checked below.
      const ours = await rename(staging, target).then(
        () => true,
        () => false,
      );
      if (ours) await rememberUnpacked(path.join(target, "tree"), files);
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
    const stored = await this.open(pkg, dist.version);
    if (stored.kind !== "ok")
      throw new ToolchainFetchError(
        "cache",
        `the fetched ${pkg}@${dist.version} is not in the cache after storing it (${stored.kind === "refused" ? stored.why : "absent"})`,
      );
    return stored.entry;
  }

  private async remove(dir: string): Promise<void> {
    const trash = path.join(this.root, "tmp", `refused-${randomBytes(8).toString("hex")}`);
    await mkdir(path.dirname(trash), { recursive: true });
    if (
      await rename(dir, trash).then(
        () => true,
        () => false,
      )
    )
      await rm(trash, { recursive: true, force: true });
  }
}
