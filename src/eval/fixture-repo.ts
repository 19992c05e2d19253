import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { stringify as toYaml, parse as parseYaml } from "yaml";
import { DEFAULT_REPO_CONFIG, REPO_CONFIG_PATH, RepoConfigSchema, type RepoConfig } from "../config/repo-config.js";
import { gitOk } from "../workspace/git.js";
import type { EvalCase } from "./case-schema.js";

/** A fixed identity and date make the base commit's sha the same on every machine and run. */
const GIT_ENV = {
  GIT_AUTHOR_NAME: "Patchgate Eval",
  GIT_AUTHOR_EMAIL: "eval@patchgate.invalid",
  GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
  GIT_COMMITTER_NAME: "Patchgate Eval",
  GIT_COMMITTER_EMAIL: "eval@patchgate.invalid",
  GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
};

export interface FixtureRepo {
  /** The repository the session clones from (it plays the GitHub repository's default branch). */
  path: string;
  baseCommit: string;
  /** Read back from `.github/patchgate.yml` as committed, the way the app reads it. */
  repoConfig: RepoConfig;
  /** Content of every committed file, for `file_unchanged` checks. */
  files: Map<string, string>;
}

// The workspace's git: hardened, and with only the environment git needs (no secret of the eval runner's).
async function git(cwd: string, ...args: string[]): Promise<string> {
  return (await gitOk(args, { cwd, env: GIT_ENV })).trim();
}

/** Copies the fixture, writes the inline files and the repo config, and commits it all on `main`. */
export async function buildFixtureRepo(c: EvalCase, target: string): Promise<FixtureRepo> {
  const dir = path.resolve(target);
  mkdirSync(dir, { recursive: true });
  if (c.fixtureDir) cpSync(c.fixtureDir, dir, { recursive: true });
  for (const [rel, content] of Object.entries(c.files)) writeRepoFile(dir, rel, content);
  if (c.config) writeRepoFile(dir, REPO_CONFIG_PATH, toYaml(c.config));

  await git(dir, "init", "-q", "-b", "main");
  await git(dir, "add", "-A");
  await git(dir, "commit", "-q", "-m", `fixture for ${c.id}`);
  const baseCommit = await git(dir, "rev-parse", "HEAD");

  const listed = (await git(dir, "ls-files", "-z")).split("\0").filter(Boolean);
  const files = new Map(listed.map((f) => [f, readFileSync(path.join(dir, f), "utf8")]));
  return { path: dir, baseCommit, repoConfig: readRepoConfig(dir), files };
}

function writeRepoFile(root: string, rel: string, content: string): void {
  const target = path.resolve(root, rel);
  if (!target.startsWith(root + path.sep)) throw new Error(`fixture file ${rel} is outside the repository`);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, content);
}

function readRepoConfig(root: string): RepoConfig {
  const file = path.join(root, REPO_CONFIG_PATH);
  if (!existsSync(file)) return DEFAULT_REPO_CONFIG;
  return RepoConfigSchema.parse(parseYaml(readFileSync(file, "utf8")) ?? {});
}
