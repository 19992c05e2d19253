import { Writable } from "node:stream";
import { statusCommand } from "../../src/cli/status-command.js";

/** `patchgate status --json` against the database at `url`, in this process: its exit code and what it printed. */
export async function statusJson(url: string): Promise<{ code: number; status: Record<string, unknown> }> {
  const out: string[] = [];
  const sink = new Writable({ write: (chunk, _e, cb) => (out.push(String(chunk)), cb()) });
  const saved = process.env.DATABASE_URL;
  process.env.DATABASE_URL = url;
  try {
    const code = await statusCommand(["--json"], sink);
    return { code, status: JSON.parse(out.join("")) as Record<string, unknown> };
  } finally {
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
  }
}
