import { execFile } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { tempDir } from "../helpers/git-fixture.js";

const ROOT = join(import.meta.dirname, "../..");
const TSX = pathToFileURL(join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;

/** `npm start` (src/main.ts) with a `.env` whose PATCHGATE_CA_BUNDLE names a missing file: one line, exit 1, before the app loads. */
test("npm start: a PATCHGATE_CA_BUNDLE naming a missing file stops the start in one line naming it", async () => {
  const dir = tempDir("pg-ca-start-");
  try {
    const missing = join(dir, "corp-ca.pem");
    writeFileSync(join(dir, ".env"), `PATCHGATE_CA_BUNDLE=${missing}\nPATCHGATE_DATA_DIR=${join(dir, "data")}\n`);
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        ["--import", TSX, join(ROOT, "src/main.ts")],
        { cwd: dir, env: { PATH: process.env.PATH ?? "", HOME: dir, NO_SMEE_SETUP: "true" }, timeout: 60_000 },
        (err, _stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stderr }),
      ),
    );
    expect(r).toEqual({ code: 1, stderr: `patchgate: PATCHGATE_CA_BUNDLE: cannot read ${missing} (ENOENT)\n` });
    expect(existsSync(join(dir, "data"))).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
