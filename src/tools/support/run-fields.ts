import type { RunResult } from "../../runs/sandbox-run.js";
import type { SandboxResult } from "../../sandbox/types.js";
import type { ToolError } from "../../session/types.js";

/** What a command tool's result tells the model about a sandboxed run (runs/sandbox-run.ts). */

export function sandboxUnavailable(): ToolError {
  return {
    code: "sandbox_unavailable",
    message:
      "No sandbox is available on this host, so commands cannot run (they are never run outside a sandbox). " +
      "Continue with the file tools; a maintainer has to enable bubblewrap or docker for commands and tests.",
  };
}

/** For a result the model reads: the special files the run left, which it must not rely on. */
export function removedFields(res: RunResult): { removed_special_files?: { paths: string[]; why: string } } {
  if (res.removedSpecial.length === 0) return {};
  return {
    removed_special_files: {
      paths: res.removedSpecial,
      why: "the run left special files; they were deleted: they cannot be committed, and git would stall on one named .gitignore",
    },
  };
}

const LIMIT_TEXT: Record<NonNullable<SandboxResult["limitExceeded"]>, string> = {
  cpu: "killed by the CPU-time limit (sandbox.cpu_seconds per process)",
  disk: "the run tried to write more than sandbox.disk_mb allows (see stderr); none of its writes were kept",
  file_size: "a file reached the size limit (sandbox.disk_mb)",
};

/** For a result the model reads: which limit ended the run, in words, when one did. */
export function limitFields(res: SandboxResult): { limit_exceeded?: string } {
  return res.limitExceeded ? { limit_exceeded: `${res.limitExceeded}: ${LIMIT_TEXT[res.limitExceeded]}` } : {};
}

/** For the model: what was put back and how to make such a change so that it counts. */
export function discardedNote(what: string, paths: string[]): { discarded?: string[]; note?: string } {
  if (paths.length === 0) return {};
  const shown = paths.slice(0, 20).join(", ") + (paths.length > 20 ? ` and ${paths.length - 20} more` : "");
  return {
    discarded: paths,
    note: `${what} changed ${shown}; ${paths.length === 1 ? "this change was" : "these changes were"} discarded (the files are as they were before it ran). Make changes with write_file or edit_file.`,
  };
}
