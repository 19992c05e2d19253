/**
 * What of a toolchain outside /usr a sandbox may see. Pure: host-layout.ts finds the facts once, this
 * turns them into mount operations, so that a backend binds exactly the files a toolchain needs and
 * never the directory it happens to live in (a node at `$HOME/bin/node` has all of HOME as its
 * "prefix", `.env` and keys included). The session's toolchains (src/toolchain: rustup, pyenv, nvm,
 * asdf, Go trees) are bound by their own directories, with credential files inside them masked.
 */

/** One mount operation, applied in order after the system mounts. */
export type Mount =
  /** A host file or directory, read-only, at the same path inside. */
  | { kind: "ro-bind"; path: string }
  /** A symlink created inside; `target` is the link text, as on the host. */
  | { kind: "symlink"; target: string; path: string }
  /** A host file or directory at another path inside: the session's cache (writable), an empty file over a credential file. */
  | { kind: "bind"; source: string; path: string; readOnly?: boolean }
  /** A directory hidden behind an empty read-only one: credentials inside a bound toolchain. */
  | { kind: "mask-dir"; path: string };

/** The node that runs Patchgate, when it is installed outside /usr (nvm, /opt, a copied binary). */
export interface NodeLayout {
  /** realpath of the node executable. */
  binary: string;
  /** Entries of the binary's directory that are symlinks into a bundled package (npm, npx, corepack). */
  links: { path: string; target: string }[];
  /** The bundled packages those links point into, e.g. `<prefix>/lib/node_modules/npm`. */
  packages: string[];
  /** Shared libraries node loaded from outside /usr (a build with a shared libnode). */
  libraries: string[];
}

export interface ToolchainBinding {
  mounts: Mount[];
  /** Put before the sandbox's default PATH. */
  pathDirs: string[];
}

const NO_BINDING: ToolchainBinding = { mounts: [], pathDirs: [] };

/** The executable, its libraries, npm/npx/corepack and their links: nothing else of the prefix. */
export function nodeBinding(layout: NodeLayout | null): ToolchainBinding {
  if (layout === null) return NO_BINDING;
  const binds = [layout.binary, ...layout.libraries, ...layout.packages].map((path): Mount => ({ kind: "ro-bind", path }));
  const links = layout.links.map((l): Mount => ({ kind: "symlink", target: l.target, path: l.path }));
  return { mounts: [...binds, ...links], pathDirs: [dirname(layout.binary)] };
}

function dirname(p: string): string {
  const i = p.lastIndexOf("/");
  return i <= 0 ? "/" : p.slice(0, i);
}
