import { parseCommandLine } from "../policy/shell/command-line.js";

/**
 * Which toolchains the maintainer's test and setup lines call. A *driver* (`cargo`, `go`, `python`,
 * `node`, `pnpm`) must be on the sandbox's PATH or the line cannot start; other programs of a
 * toolchain (`pytest`, `tox`) make it needed but may come from the setup step itself.
 */
export interface ProgramUse {
  program: string;
  toolchain: string;
  driver: boolean;
  /** `test command` or `setup command`. */
  source: string;
}

const DRIVERS: Record<string, string> = {
  cargo: "rust",
  rustc: "rust",
  go: "go",
  python: "python",
  python3: "python",
  node: "node",
  npm: "node",
  npx: "node",
  pnpm: "pnpm",
  yarn: "yarn",
};

const MEMBERS: Record<string, string> = {
  rustdoc: "rust",
  rustfmt: "rust",
  "cargo-clippy": "rust",
  gofmt: "go",
  pip: "python",
  pip3: "python",
  pytest: "python",
  tox: "python",
  nox: "python",
  corepack: "node",
};

function toolchainOf(program: string): { toolchain: string; driver: boolean } | null {
  if (DRIVERS[program]) return { toolchain: DRIVERS[program], driver: true };
  if (/^python3\.\d+$/.test(program)) return { toolchain: "python", driver: true };
  if (MEMBERS[program]) return { toolchain: MEMBERS[program], driver: false };
  return null;
}

/** Every program of a known toolchain named in the lines (wrapped ones too: `timeout 60 cargo test`). */
export function programsOf(lines: readonly { text: string; source: string }[]): ProgramUse[] {
  const uses: ProgramUse[] = [];
  for (const { text, source } of lines) {
    const parsed = parseCommandLine(text);
    if (!parsed.ok) continue;
    for (const part of parsed.line.parts) {
      const program = part.argv[0] ?? "";
      // A path (`./gradlew`, `.venv/bin/pytest`) is the repository's own or set up by it.
      const known = program.includes("/") ? null : toolchainOf(program);
      if (known && !uses.some((u) => u.program === program)) uses.push({ program, ...known, source });
    }
  }
  return uses;
}
