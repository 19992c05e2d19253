import type { ManagerView } from "./types.js";

/** What to run to get a missing toolchain, naming the manager the host already uses when there is one. */
export function installHint(name: string, spec: string | null, views: readonly ManagerView[]): string {
  const v = spec ?? "";
  const managers = new Set(views.map((w) => w.manager));
  switch (name) {
    case "rust":
      return spec ? `rustup toolchain install ${v}` : "install Rust with rustup (rustup.rs)";
    case "python":
      if (managers.has("pyenv") || spec) return `pyenv install ${spec ?? "<version>"}`;
      return "install Python 3 (pyenv, or apt-get install python3)";
    case "node":
      if (managers.has("fnm") && !managers.has("nvm")) return `fnm install ${spec ?? "--lts"}`;
      return `nvm install ${spec ?? "--lts"}`;
    case "go":
      return spec ? `install Go ${v} or later (the archive unpacked into /usr/local/go, or asdf/mise)` : "install Go (the archive unpacked into /usr/local/go)";
    case "pnpm":
    case "yarn":
    case "npm":
      return spec ? `npm install -g ${name}@${v} with the node the sandbox uses (or corepack prepare ${name}@${v} --activate)` : `npm install -g ${name}`;
    default:
      if (managers.has("mise")) return `mise install ${name}@${v}`;
      return `asdf install ${name} ${v}`.trim();
  }
}

export const OPERATOR_HINT = "or list its bin directory in the operator settings (sandbox.toolchains)";
