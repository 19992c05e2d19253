import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open } from "node:fs/promises";
import path from "node:path";
import { createGunzip } from "node:zlib";
import { ToolchainFetchError } from "./fetch-error.js";
import { ByteSource, paxPath, readHeader, type TarHeader } from "./tar-reader.js";

/** One file of an unpacked toolchain, as its manifest records it (tree-manifest.ts checks it again). */
export interface TreeFile {
  /** Relative to the tree, `/`-separated: `bin/node`. */
  path: string;
  size: number;
  sha256: string;
  executable: boolean;
}

/**
 * Unpacks a gzipped package tarball (its integrity already checked) into `dest`, which must be an
 * empty directory Patchgate made. Only regular files and directories are taken, each path below the
 * package's top directory (`package/`): a link, a device, a FIFO or a path with `..` refuses the whole
 * archive, so nothing it holds can point outside the tree or be anything but data. Files are written
 * 0755 or 0644 (whoever unpacks, no set-id bit, no owner from the archive). Nothing is run.
 */
export async function unpackTarball(tgz: string, dest: string): Promise<TreeFile[]> {
  const src = new ByteSource(createReadStream(tgz).pipe(createGunzip())[Symbol.asyncIterator]());
  const files: TreeFile[] = [];
  let nextPath: string | null = null;
  for (let h = await readHeader(src); h !== null; h = await readHeader(src)) {
    if (h.type === "x") {
      nextPath = paxPath(await src.bodyBytes(h.size));
      continue;
    }
    if (h.type === "L") {
      nextPath = (await src.bodyBytes(h.size)).toString("utf8").replace(/\0+$/, "");
      continue;
    }
    if (h.type === "g") {
      await src.bodyBytes(h.size);
      continue;
    }
    const rel = insidePath(nextPath ?? h.path);
    nextPath = null;
    if (h.type === "5") {
      if (rel !== "") await mkdir(path.join(dest, rel), { recursive: true });
      continue;
    }
    if (h.type !== "0") throw new ToolchainFetchError("archive", `the archive holds ${kindOf(h)} at ${clip(h.path)}, which a toolchain package never needs`);
    if (rel === "") throw new ToolchainFetchError("archive", `the archive holds a file at its top (${clip(h.path)})`);
    files.push(await writeFile(src, h, path.join(dest, rel), rel));
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}

async function writeFile(src: ByteSource, h: TarHeader, file: string, rel: string): Promise<TreeFile> {
  const executable = (h.mode & 0o111) !== 0;
  await mkdir(path.dirname(file), { recursive: true }).catch(() => {
    throw new ToolchainFetchError("archive", `the archive holds ${clip(rel)} below a file`);
  });
  // `wx`: a second member of the same path refuses the archive instead of replacing the first.
  const out = await open(file, "wx", executable ? 0o755 : 0o644).catch((e: NodeJS.ErrnoException) => {
    throw new ToolchainFetchError("archive", e.code === "EEXIST" ? `the archive holds ${clip(rel)} twice` : `cannot write ${clip(rel)}: ${e.code}`);
  });
  const hash = createHash("sha256");
  try {
    for await (const piece of src.body(h.size)) {
      hash.update(piece);
      await out.write(piece);
    }
    // The mode given at creation is narrowed by the umask; the manifest records what was meant.
    await out.chmod(executable ? 0o755 : 0o644);
  } finally {
    await out.close();
  }
  return { path: rel, size: h.size, sha256: hash.digest("hex"), executable };
}

/** The member's path below the package's top directory, or a refusal when it would leave it. */
function insidePath(raw: string): string {
  const parts = raw.split("/").filter((p) => p !== "" && p !== ".");
  if (raw.startsWith("/") || parts.some((p) => p === ".." || p.includes("\\")))
    throw new ToolchainFetchError("archive", `the archive names ${clip(raw)}, a path that leaves the package`);
  return parts.slice(1).join("/");
}

const KINDS: Record<string, string> = { "1": "a hard link", "2": "a symbolic link", "3": "a character device", "4": "a block device", "6": "a FIFO" };

function kindOf(h: TarHeader): string {
  return KINDS[h.type] ?? `an entry of type ${JSON.stringify(h.type)}`;
}

function clip(p: string): string {
  return JSON.stringify(p.length > 120 ? `${p.slice(0, 120)}…` : p);
}
