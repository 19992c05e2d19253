import { createHash } from "node:crypto";
import { lstat, readFile } from "node:fs/promises";
import path from "node:path";
import { INSTALL_SCRIPTS, isSetupInput, namedBySetup } from "../policy/setup-inputs.js";
import { gitOk } from "./git.js";

/**
 * A digest of what decides the setup's outcome as the workspace holds it now: the setup command and
 * every setup input (policy/setup-inputs.ts: manifests, lockfiles, the files the command names) among
 * the tracked files and the ones the session wrote. Setup is memoised on it: an unchanged digest
 * means running it again would do the same (a failure is not retried on every resume), a changed
 * lockfile or manifest means it must run again.
 */
export async function setupInputDigest(root: string, command: string, written: readonly string[], signal?: AbortSignal): Promise<string> {
  const tracked = (await gitOk(["ls-files", "-z"], { cwd: root, signal })).split("\0").filter((p) => p !== "");
  const named = namedBySetup(command, await installScripts(root));
  const paths = [...new Set([...tracked, ...written])].filter((p) => isSetupInput(p, named)).sort();
  const h = createHash("sha256").update(`command\0${command}\0`);
  for (const p of paths) h.update(`${p}\0${await contentDigest(path.join(root, p))}\0`);
  return h.digest("hex");
}

/** A regular file's sha256; `absent` or `not-a-file` otherwise (a symlink is not followed). */
async function contentDigest(abs: string): Promise<string> {
  const st = await lstat(abs).catch(() => null);
  if (st === null) return "absent";
  if (!st.isFile()) return "not-a-file";
  return createHash("sha256")
    .update(await readFile(abs))
    .digest("hex");
}

async function installScripts(root: string): Promise<string[]> {
  const abs = path.join(root, "package.json");
  // Never a FIFO or a link out of the workspace: only a regular file is read.
  if (
    !(await lstat(abs).then(
      (st) => st.isFile(),
      () => false,
    ))
  )
    return [];
  try {
    const pkg = JSON.parse(await readFile(abs, "utf8")) as { scripts?: Record<string, unknown> };
    return INSTALL_SCRIPTS.map((k) => pkg.scripts?.[k]).filter((v): v is string => typeof v === "string");
  } catch {
    return [];
  }
}
