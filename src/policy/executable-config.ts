import path from "node:path";
import picomatch from "picomatch";
import type { ExecutableConfigHit } from "../session/types.js";

/**
 * Executable configuration: files some tool runs, or obeys, on its own — in CI with the project's
 * secrets, on a maintainer's machine when they open the folder, commit or install, or as instructions
 * to every later agent — with no test run and no reviewer in between. Publishing one needs an
 * `executable_config` approval of its own (DESIGN §3, gate 9); a label or a CLI flag never gives it.
 *
 * The table names what a tool executes; a repository may add globs (`policy.executable_config` in
 * `.github/patchgate.yml`) but never remove a row. Paths the hard deny already refuses
 * (PROTECTED_PATH_GLOBS: workflows, actions, husky, .vscode, .claude…) stay refused; rows for them
 * here only keep the table whole. Code under test (sources, test files, build files the test command
 * itself runs) is not here: the sandboxed test run is where it runs, and a human approved the write.
 * Left out on purpose: pins that only pick a version of a tool already installed (`.nvmrc`,
 * `.tool-versions`, `.python-version`), and `pip.conf`, which pip never reads from a project directory.
 */
export interface ExecutableConfigRow {
  /** The tool (or family) that executes or obeys these files. */
  tool: string;
  /** When it does, and with what it runs. */
  when: string;
  globs: readonly string[];
}

export const EXECUTABLE_CONFIG: readonly ExecutableConfigRow[] = [
  // CI and deploy systems: they build every pushed branch, usually with the project's secrets.
  {
    tool: "GitHub Actions",
    when: "workflows and composite actions run on push with the repository's secrets",
    globs: [".github/workflows/**", ".github/actions/**", "action.yml", "action.yaml"],
  },
  { tool: "CircleCI", when: "builds every pushed branch with the project's secrets", globs: [".circleci/**"] },
  { tool: "GitLab CI", when: "runs the pipeline (and the files it includes) on every push", globs: [".gitlab-ci.yml", ".gitlab-ci.yaml", ".gitlab/**"] },
  { tool: "Travis CI", when: "builds every pushed branch", globs: [".travis.yml"] },
  { tool: "Azure Pipelines", when: "runs on push", globs: ["azure-pipelines.yml", "azure-pipelines.yaml", ".azure-pipelines/**"] },
  { tool: "Jenkins", when: "multibranch pipelines run each branch's Jenkinsfile", globs: ["**/Jenkinsfile", "**/Jenkinsfile.*"] },
  { tool: "Buildkite", when: "the agent uploads and runs the pipeline on push", globs: [".buildkite/**", "buildkite.yml", "buildkite.yaml", "buildkite.json"] },
  { tool: "Drone", when: "runs on push", globs: [".drone.yml", ".drone.yaml", ".drone.jsonnet", ".drone.star"] },
  { tool: "Woodpecker CI", when: "runs on push", globs: [".woodpecker.yml", ".woodpecker.yaml", ".woodpecker/**"] },
  { tool: "Bitbucket Pipelines", when: "runs on push", globs: ["bitbucket-pipelines.yml"] },
  { tool: "AppVeyor", when: "builds every pushed branch", globs: ["appveyor.yml", ".appveyor.yml"] },
  { tool: "Cirrus CI", when: "runs on push", globs: [".cirrus.yml", ".cirrus.star"] },
  { tool: "Semaphore", when: "runs on push", globs: [".semaphore/**"] },
  {
    tool: "Google Cloud Build / AWS CodeBuild",
    when: "branch triggers run the build spec",
    globs: ["cloudbuild.yaml", "cloudbuild.yml", "buildspec.yml", "buildspec.yaml"],
  },
  {
    tool: "Netlify / Vercel / Codemagic",
    when: "deploy previews build every pushed branch with the site's environment",
    globs: ["netlify.toml", "vercel.json", "codemagic.yaml"],
  },
  // Development environments: commands run when a maintainer opens the repository.
  {
    tool: "Dev Containers / Codespaces",
    when: "lifecycle commands (postCreateCommand …) run when the container is built or opened",
    globs: [".devcontainer/**", ".devcontainer.json"],
  },
  { tool: "Gitpod", when: "tasks run when a workspace starts", globs: [".gitpod.yml", ".gitpod.Dockerfile"] },
  { tool: "direnv", when: "sources .envrc in the shell on entering the directory (once allowed)", globs: ["**/.envrc"] },
  {
    tool: "mise",
    when: "env sources, hooks and tasks run on entering the directory",
    globs: ["mise.toml", ".mise.toml", "mise.*.toml", ".mise.*.toml", ".config/mise.toml", ".config/mise/**", ".mise/**"],
  },
  // Git hooks managers: hooks run on every maintainer's commit, push or checkout.
  { tool: "husky", when: "git hooks on commit and push", globs: [".husky/**"] },
  {
    tool: "lefthook",
    when: "git hooks on commit and push",
    globs: [
      "lefthook.yml",
      "lefthook.yaml",
      "lefthook.toml",
      "lefthook.json",
      ".lefthook.yml",
      ".lefthook.yaml",
      "lefthook-local.yml",
      "lefthook-local.yaml",
      ".lefthook/**",
    ],
  },
  {
    tool: "pre-commit",
    when: "hooks (local ones run arbitrary entries) on commit; pre-commit.ci runs them on every push",
    globs: [".pre-commit-config.yaml", ".pre-commit-config.yml", ".pre-commit-hooks.yaml"],
  },
  {
    tool: "simple-git-hooks",
    when: "git hooks on commit and push",
    globs: [
      ".simple-git-hooks.js",
      ".simple-git-hooks.cjs",
      ".simple-git-hooks.mjs",
      ".simple-git-hooks.json",
      "simple-git-hooks.js",
      "simple-git-hooks.cjs",
      "simple-git-hooks.mjs",
      "simple-git-hooks.json",
    ],
  },
  { tool: "lint-staged", when: "commands run on every commit through a hook manager", globs: [".lintstagedrc", ".lintstagedrc.*", "lint-staged.config.*"] },
  { tool: "overcommit / core.hooksPath", when: "hooks a setup script points git at", globs: [".overcommit.yml", ".githooks/**"] },
  // Editors and IDEs: tasks, launch and run configurations, and settings that name programs.
  { tool: "VS Code", when: "tasks (runOn: folderOpen), launch configurations and settings that name programs", globs: [".vscode/**", "*.code-workspace"] },
  { tool: "JetBrains IDEs", when: "run configurations, startup tasks and external tools", globs: [".idea/**", ".run/**"] },
  { tool: "Zed", when: "tasks and settings that name language servers", globs: [".zed/**"] },
  { tool: "Vim / Neovim", when: "exrc files sourced when the editor starts in the directory", globs: [".exrc", ".nvimrc", ".nvim.lua"] },
  // Agent instructions: every later agent (Patchgate's included) obeys them; agent configs run hooks and servers.
  {
    tool: "AGENTS.md readers (Codex, Patchgate, others)",
    when: "instructions for every later agent session",
    globs: ["**/AGENTS.md", "**/AGENTS.override.md"],
  },
  { tool: "Claude Code", when: "instructions; hooks, commands and MCP servers", globs: ["**/CLAUDE.md", "**/CLAUDE.local.md", ".claude/**", "**/.mcp.json"] },
  {
    tool: "GitHub Copilot",
    when: "repository, path and prompt instructions for the coding agent and chat",
    globs: [".github/copilot-instructions.md", ".github/instructions/**", ".github/prompts/**", ".github/chatmodes/**", ".github/agents/**"],
  },
  {
    tool: "Cursor / Windsurf / Cline / Roo / Junie",
    when: "rules and MCP servers for the editor's agent",
    globs: [".cursor/**", ".cursorrules", ".windsurf/**", ".windsurfrules", ".clinerules", ".clinerules/**", ".roo/**", ".junie/**"],
  },
  {
    tool: "Gemini CLI / Aider",
    when: "instructions, settings, and lint or test commands the agent runs",
    globs: ["**/GEMINI.md", ".gemini/**", ".aider.conf.yml"],
  },
  {
    tool: "Patchgate",
    when: "the repository's configuration and the instructions every session reads",
    globs: [".github/patchgate.yml", ".github/patchgate/**"],
  },
  // Package managers: settings and plugins they load on every install, on every machine.
  { tool: "npm", when: "reads .npmrc on every install (registry, scripts, node-options, git)", globs: ["**/.npmrc"] },
  {
    tool: "Yarn",
    when: "yarnPath and plugins in .yarnrc.yml are executed by every yarn command",
    globs: ["**/.yarnrc", "**/.yarnrc.yml", ".yarn/plugins/**", ".yarn/releases/**"],
  },
  {
    tool: "pnpm",
    when: ".pnpmfile hooks run on every install; the workspace file decides which dependencies may build",
    globs: [".pnpmfile.cjs", ".pnpmfile.mjs", "pnpm-workspace.yaml"],
  },
  { tool: "Bun", when: "preload scripts and install settings", globs: ["**/bunfig.toml", "**/.bunfig.toml"] },
  {
    tool: "Cargo / rustup",
    when: "build.rustflags, linkers, runners and aliases; a toolchain path rustup executes",
    globs: ["**/.cargo/config", "**/.cargo/config.toml", "rust-toolchain", "rust-toolchain.toml"],
  },
  {
    tool: "Bundler",
    when: "evaluates the Gemfile and gemspecs as Ruby on every install; .bundle/config sets build options",
    globs: ["**/Gemfile", "**/gems.rb", "**/*.gemspec", ".bundle/**"],
  },
  {
    tool: "Gradle / Maven wrappers",
    when: "download and run the distribution the wrapper names; Maven loads core extensions on every build",
    globs: ["gradle/wrapper/**", "gradlew", "gradlew.bat", ".mvn/**", "mvnw", "mvnw.cmd"],
  },
  { tool: "uv", when: "index and build settings for every sync", globs: ["**/uv.toml"] },
  { tool: "git-lfs", when: "reads .lfsconfig on every checkout and push: the server it sends credentials to", globs: [".lfsconfig"] },
  // Build scripts that run on install, before anyone runs a test.
  { tool: "node-gyp (npm install)", when: "npm runs node-gyp rebuild for a package with a binding.gyp", globs: ["**/binding.gyp"] },
  { tool: "setuptools (pip install)", when: "setup.py runs on every install from source and editable install", globs: ["**/setup.py"] },
  { tool: "Cargo build scripts", when: "build.rs runs on every build and check, and in rust-analyzer when the project is opened", globs: ["**/build.rs"] },
];

export type { ExecutableConfigHit };

function normalised(rel: string): string {
  return path.posix.normalize(rel.replace(/\\/g, "/")).replace(/^\.\//, "").replace(/\/+$/, "");
}

// nocase: a case-insensitive checkout (macOS) maps `.CircleCI/config.yml` onto the real one.
const GLOB_OPTIONS = { dot: true, nocase: true };
/** Compiled once: every write and every published path is judged against the whole table. */
const ROWS = EXECUTABLE_CONFIG.map((row) => ({ row, matches: picomatch([...row.globs], GLOB_OPTIONS) }));

/** The row that names `rel` (workspace-relative), or a repository's extra glob, or null. */
export function executableConfigPath(rel: string, extra: readonly string[] = []): ExecutableConfigHit | null {
  const p = normalised(rel);
  for (const { row, matches } of ROWS) if (matches(p)) return { path: p, tool: row.tool, when: row.when };
  if (extra.length > 0 && picomatch([...extra], GLOB_OPTIONS)(p))
    return { path: p, tool: "this repository", when: "named executable configuration in .github/patchgate.yml" };
  return null;
}
