import { execFile } from "node:child_process";
import { cpSync, mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/cli-process.js";
import { tempDir } from "../helpers/git-fixture.js";

/**
 * `npx patchgate` (bin/patchgate.js) and `npm start` against a dist/ that is, or is not, what src/
 * compiles to now. A copy of the checkout's bin/, package.json and tsconfigs around a one-file src/,
 * whose output says where it came from; file times are set, never waited for.
 */
let dir: string;
beforeEach(() => {
  dir = tempDir("pg-dist-");
  for (const f of ["bin", "package.json", "tsconfig.json", "tsconfig.build.json"]) cpSync(join(ROOT, f), join(dir, f), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  write("src/cli/main.ts", 'console.log("cli from src");\nexport {};\n');
  write("src/main.ts", 'console.log("app compiled from src");\nexport {};\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(rel: string, text: string): void {
  mkdirSync(join(dir, rel, ".."), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

/** Sets a file's modification time, `secondsAgo` before now. */
function age(rel: string, secondsAgo: number): void {
  const t = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(join(dir, rel), t, t);
}

function run(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(file, args, { cwd: dir, env: { ...process.env, npm_config_update_notifier: "false" } }, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}
const patchgate = () => run(process.execPath, ["bin/patchgate.js"]);

/** A dist/ as `npm run build` leaves it, stamped `secondsAgo` before now, with the sources older still. */
function builtDist(secondsAgo: number): void {
  write("dist/cli/main.js", 'console.log("cli from dist");\n');
  write("dist/.built-at", String(Date.now() - secondsAgo * 1000));
  for (const f of ["src/cli/main.ts", "src/cli", "src/main.ts", "src", "tsconfig.json", "tsconfig.build.json"]) age(f, secondsAgo + 60);
}

describe("npx patchgate", () => {
  test("runs dist/ when it was built from the sources as they are", async () => {
    builtDist(10);
    expect((await patchgate()).stdout).toBe("cli from dist\n");
  });

  test("runs the sources when one of them changed after the build", async () => {
    builtDist(10);
    age("src/cli/main.ts", 1);
    expect((await patchgate()).stdout).toBe("cli from src\n");
  });

  test("runs the sources when a source file was added after the build", async () => {
    builtDist(10);
    write("src/cli/extra.ts", "export {};\n");
    expect((await patchgate()).stdout).toBe("cli from src\n");
  });

  test("runs the sources when dist/ was not made by `npm run build` (no stamp)", async () => {
    builtDist(10);
    rmSync(join(dir, "dist/.built-at"));
    expect((await patchgate()).stdout).toBe("cli from src\n");
  });

  test("runs dist/ where there are no sources, as in the image", async () => {
    builtDist(10);
    rmSync(join(dir, "src"), { recursive: true });
    expect((await patchgate()).stdout).toBe("cli from dist\n");
  });
});

describe("npm start", () => {
  test("compiles when dist/ is stale, and not again while the sources stay as they are", async () => {
    const first = await run("npm", ["start", "--silent"]);
    expect([first.code, first.stdout]).toEqual([0, "app compiled from src\n"]);
    // A marker in place of the compiled file: a second compile would overwrite it.
    write("dist/main.js", 'console.log("dist kept");\n');
    const second = await run("npm", ["start", "--silent"]);
    expect([second.code, second.stdout]).toEqual([0, "dist kept\n"]);
    write("src/main.ts", 'console.log("app compiled again");\nexport {};\n');
    const third = await run("npm", ["start", "--silent"]);
    expect([third.code, third.stdout]).toEqual([0, "app compiled again\n"]);
  }, 120_000);
});
