/**
 * The real projects `session_overhead` runs sessions on: each fetched from a registry this machine
 * reaches (npm packages with `npm pack`, and a Python, a Go and a Rust project as Debian
 * ships their sources: the Python package with its tests, the `-dev` packages of a module and a crate), unpacked, given a `.github/patchgate.yml`
 * naming the setup and the runner of the project's own tests, and committed as one repository.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface RealProject {
  name: string;
  /** Where its sources come from, e.g. "npm minimist@1.2.8". */
  origin: string;
  /** The file the scripted model reads and edits, and how a comment starts in its language. */
  edit: { path: string; comment: string };
  /** The repository config: setup (when the project needs one) and the test command. */
  config: string;
  /**
   * The upstream repository's ignore rules where the published files lack them (npm strips
   * `.gitignore`): without them the installed dependencies would count as the project's files.
   */
  ignore?: string;
  /** Fetches and unpacks the sources into `dir`. */
  fetch: (dir: string, scratch: string) => void;
}

const run = (cmd: string, args: string[], cwd?: string): string =>
  execFileSync(cmd, args, { cwd, encoding: "utf8", timeout: 300_000, stdio: ["ignore", "pipe", "pipe"] });

/** The package's published files (tests included where the package ships them). */
function npmPackage(spec: string): (dir: string, scratch: string) => void {
  return (dir, scratch) => {
    run("npm", ["pack", "--silent", "--pack-destination", scratch, spec]);
    const tgz = readdirSync(scratch).find((f) => f.endsWith(".tgz"));
    if (!tgz) throw new Error(`npm pack ${spec} left no tarball`);
    run("tar", ["xzf", path.join(scratch, tgz), "-C", dir, "--strip-components=1"]);
  };
}

/** A Debian package's file tree, unpacked without installing it; `under` is the project's folder in it. */
function debianSource(pkg: string, under: (root: string) => string): (dir: string, scratch: string) => void {
  return (dir, scratch) => {
    run("apt-get", ["download", "-q", pkg], scratch);
    const deb = readdirSync(scratch).find((f) => f.endsWith(".deb"));
    if (!deb) throw new Error(`apt-get download ${pkg} left no package`);
    const root = path.join(scratch, "root");
    run("dpkg-deb", ["-x", path.join(scratch, deb), root]);
    cpSync(under(root), dir, { recursive: true, dereference: true });
  };
}

const only = (root: string, parent: string): string => {
  const dir = path.join(root, parent);
  const [first] = readdirSync(dir);
  if (!first) throw new Error(`nothing under ${parent}`);
  return path.join(dir, first);
};

/** ljharb's packages ship their tape suites; the config runs tape directly (no lint, no coverage). */
const TAPE = (glob: string) =>
  `setup: npm install --no-audit --no-fund\ntest: npx tape '${glob}'\nsandbox:\n  network_for_setup: true\ntimeouts:\n  setup_seconds: 900\n`;

const NODE_IGNORE = "node_modules/\n";

export const REAL_PROJECTS: RealProject[] = [
  {
    name: "minimist",
    origin: "npm minimist@1.2.8",
    edit: { path: "index.js", comment: "//" },
    config: TAPE("test/*.js"),
    ignore: NODE_IGNORE,
    fetch: npmPackage("minimist@1.2.8"),
  },
  {
    name: "object-inspect",
    origin: "npm object-inspect@1.13.2",
    edit: { path: "index.js", comment: "//" },
    config: TAPE("test/*.js"),
    ignore: NODE_IGNORE,
    fetch: npmPackage("object-inspect@1.13.2"),
  },
  {
    name: "side-channel",
    origin: "npm side-channel@1.0.4",
    edit: { path: "index.js", comment: "//" },
    config: TAPE("test/*.js"),
    ignore: NODE_IGNORE,
    fetch: npmPackage("side-channel@1.0.4"),
  },
  {
    name: "toolz",
    origin: "Debian python3-toolz",
    edit: { path: "toolz/utils.py", comment: "#" },
    config: "test: python3 -m pytest -q -p no:cacheprovider toolz/tests\n",
    ignore: "__pycache__/\n",
    fetch: debianSource("python3-toolz", (root) => path.join(root, "usr/lib/python3/dist-packages")),
  },
  {
    name: "go-cmp",
    origin: "Debian golang-github-google-go-cmp-dev",
    edit: { path: "cmp/path.go", comment: "//" },
    config: "test: go test ./...\n",
    fetch: debianSource("golang-github-google-go-cmp-dev", (root) => path.join(root, "usr/share/gocode/src/github.com/google/go-cmp")),
  },
  {
    name: "itoa",
    origin: "Debian librust-itoa-dev",
    edit: { path: "src/lib.rs", comment: "//" },
    config: "test: cargo test --offline\n",
    ignore: "target/\nCargo.lock\n",
    fetch: debianSource("librust-itoa-dev", (root) => only(root, "usr/share/cargo/registry")),
  },
];

const GIT = ["-c", "core.hooksPath=/dev/null", "-c", "user.name=Bench", "-c", "user.email=bench@example.invalid"];

/** The project as a repository with one commit, in a new folder under `root`; the caller removes `root`. */
export function projectRepo(project: RealProject, root: string): string {
  const dir = mkdtempSync(path.join(root, `${project.name}-`));
  const scratch = mkdtempSync(path.join(os.tmpdir(), "pg-bench-fetch-"));
  try {
    project.fetch(dir, scratch);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  if (!existsSync(path.join(dir, project.edit.path))) throw new Error(`${project.origin} has no ${project.edit.path}`);
  rmSync(path.join(dir, ".github"), { recursive: true, force: true });
  mkdirSync(path.join(dir, ".github"));
  writeFileSync(path.join(dir, ".github/patchgate.yml"), project.config);
  if (project.ignore !== undefined && !existsSync(path.join(dir, ".gitignore"))) writeFileSync(path.join(dir, ".gitignore"), project.ignore);
  run("git", ["init", "-q", "-b", "main"], dir);
  run("git", [...GIT, "add", "-A"], dir);
  run("git", [...GIT, "commit", "-q", "-m", `${project.origin}`], dir);
  return dir;
}

/** The edit the scripted model makes: a comment after the file's first line that occurs once. */
export function benchEdit(project: RealProject, repo: string): { search: string; replace: string } {
  const text = readFileSync(path.join(repo, project.edit.path), "utf8");
  const lines = text.split("\n");
  const line = lines.find((l) => l.trim() !== "" && text.split(l).length === 2);
  if (line === undefined) throw new Error(`${project.edit.path} has no line that occurs once`);
  return { search: line, replace: `${line}\n${project.edit.comment} checked by the session_overhead bench` };
}
