import { git } from "./git.js";

/**
 * The content of many paths at one commit, read by one `git cat-file --batch` instead of one git
 * process per path: text (UTF-8), or null where the commit has no blob at that path. A path with a
 * newline cannot be a line of the batch's input, so it is read on its own.
 */
export async function blobsAt(root: string, commit: string, paths: readonly string[], signal?: AbortSignal): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  const batched = paths.filter((p) => !p.includes("\n"));
  for (const p of paths.filter((x) => x.includes("\n"))) out.set(p, await oneBlob(root, commit, p, signal));
  if (batched.length === 0) return out;
  const r = await git(["cat-file", "--batch"], { cwd: root, signal, input: batched.map((p) => `${commit}:${p}\n`).join("") });
  if (r.exitCode !== 0 || r.stdoutBytes === undefined) throw new Error(`git cat-file --batch failed (exit ${r.exitCode}): ${r.stderr.trim()}`);
  const blobs = parseBatch(r.stdoutBytes, batched.length);
  batched.forEach((p, i) => out.set(p, blobs[i]!));
  return out;
}

async function oneBlob(root: string, commit: string, rel: string, signal?: AbortSignal): Promise<string | null> {
  const r = await git(["cat-file", "blob", `${commit}:${rel}`], { cwd: root, signal });
  return r.exitCode === 0 ? r.stdout : null;
}

/**
 * `git cat-file --batch` output, one answer per request in order: `<sha> <type> <size>\n<content>\n`,
 * or `<request> missing\n` (also `ambiguous`). Only a blob is content; a tree or a missing path is null.
 */
export function parseBatch(bytes: Buffer, count: number): (string | null)[] {
  const out: (string | null)[] = [];
  let at = 0;
  while (out.length < count) {
    const eol = bytes.indexOf(0x0a, at);
    if (eol < 0) throw new Error(`git cat-file --batch answered ${out.length} of ${count} requests`);
    const header = bytes.subarray(at, eol).toString("utf8");
    at = eol + 1;
    const m = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
    if (!m) {
      out.push(null);
      continue;
    }
    const size = Number(m[2]);
    out.push(m[1] === "blob" ? bytes.subarray(at, at + size).toString("utf8") : null);
    at += size + 1;
  }
  return out;
}
