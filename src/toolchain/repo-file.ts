import { lstat, open } from "node:fs/promises";
import path from "node:path";

const MAX_BYTES = 64 * 1024;

/**
 * A small file at the top of the repository, or null. A symlink is not followed: the clone is the
 * repository's, and a `.python-version` pointing at a host file must not put that file's first line
 * into the ledger and the check run.
 */
export async function readRepoFile(root: string, name: string): Promise<string | null> {
  const file = path.join(root, name);
  const st = await lstat(file).catch(() => null);
  if (!st?.isFile()) return null;
  const handle = await open(file, "r");
  try {
    const buf = Buffer.alloc(Math.min(st.size, MAX_BYTES));
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead).toString("utf8");
  } finally {
    await handle.close();
  }
}

/** The first line that is neither empty nor a comment, without a trailing `# comment`. */
export function firstValue(text: string): string | null {
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, "").trim();
    if (line !== "") return line;
  }
  return null;
}
