import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Handler, RouteResult } from "./github-routes.js";
import type { GitHubWorld } from "./github-state.js";
import { notFound } from "./route-errors.js";

/**
 * GitHub's Git Data API over the bare repository the fake serves, with real git: blobs, trees (on a
 * base tree; `sha: null` deletes), commits (author and committer default to the app's bot, and
 * GitHub signs them: `verification.verified`), and refs (create: 422 when it exists; update: 422
 * unless a fast-forward or `force`). Errors have GitHub's status and message.
 */
const invalid = (message: string, status = 422): RouteResult => ({ status, body: { message, documentation_url: "https://docs.github.com/rest/git" } });
/** GitHub's own limit for one blob. */
const MAX_BLOB_BYTES = 100 * 1024 * 1024;

export function bareGit(w: GitHubWorld, args: string[], opts: { input?: string | Buffer; env?: Record<string, string> } = {}): { ok: boolean; out: string } {
  try {
    const out = execFileSync("git", args, {
      cwd: w.bareRepo ?? ".",
      input: opts.input,
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", ...opts.env },
      encoding: "utf8",
      stdio: ["pipe", "pipe", "pipe"],
      maxBuffer: 256 * 1024 * 1024,
    });
    return { ok: true, out: out.trim() };
  } catch {
    return { ok: false, out: "" };
  }
}

const isSha = (v: unknown): v is string => typeof v === "string" && /^[0-9a-f]{40}$/.test(v);
/**
 * An object's type never changes, and git keeps the fake's objects for weeks (gc prunes nothing
 * younger), so a type once read stays true. A sha not found is asked again: it may be written later.
 */
const knownTypes = new WeakMap<GitHubWorld, Map<string, string>>();
function typesOf(w: GitHubWorld): Map<string, string> {
  const known = knownTypes.get(w) ?? new Map<string, string>();
  knownTypes.set(w, known);
  return known;
}
const typeOf = (w: GitHubWorld, sha: string): string | null => {
  const cached = typesOf(w).get(sha);
  if (cached) return cached;
  const r = bareGit(w, ["cat-file", "-t", sha]);
  if (r.ok) typesOf(w).set(sha, r.out);
  return r.ok ? r.out : null;
};
/** What this fake has just written exists, with the type it wrote. */
const wrote = (w: GitHubWorld, r: { ok: boolean; out: string }, type: string) => {
  if (r.ok) typesOf(w).set(r.out, type);
  return r;
};

function createBlob(w: GitHubWorld, b: any): RouteResult {
  const data = b.encoding === "base64" ? Buffer.from(String(b.content), "base64") : Buffer.from(String(b.content), "utf8");
  if (data.length > MAX_BLOB_BYTES) return invalid("content is too large (maximum is 100 MB)");
  const r = wrote(w, bareGit(w, ["hash-object", "-w", "--stdin"], { input: data }), "blob");
  return r.ok
    ? { status: 201, body: { sha: r.out, url: `${w.htmlBase}/api/v3/repos/${w.owner}/${w.repo}/git/blobs/${r.out}` } }
    : invalid("could not store the blob", 500);
}

function createTree(w: GitHubWorld, b: any): RouteResult {
  const dir = mkdtempSync(join(tmpdir(), "fake-gh-tree-"));
  const env = { GIT_INDEX_FILE: join(dir, "index") };
  try {
    if (b.base_tree !== undefined && (!isSha(b.base_tree) || typeOf(w, b.base_tree) !== "tree")) return invalid("base_tree is not a valid tree");
    bareGit(w, b.base_tree ? ["read-tree", b.base_tree] : ["read-tree", "--empty"], { env });
    // One index-info line per entry; mode 0 removes the path (there is no work tree to consult).
    const lines: string[] = [];
    for (const e of b.tree as { path: string; mode: string; type: string; sha: string | null }[]) {
      if (/[\n\0]/.test(e.path) || e.path.startsWith("/") || e.path.split("/").some((p) => p === "" || p === "." || p === ".."))
        return invalid(`tree.path ${JSON.stringify(e.path)} is invalid`);
      if (e.sha === null) {
        lines.push(`0 ${"0".repeat(40)}\t${e.path}`);
        continue;
      }
      const want = e.mode === "160000" ? "commit" : e.type;
      if (!isSha(e.sha) || (want !== "commit" && typeOf(w, e.sha) !== want)) return invalid(`tree.sha ${e.sha} is not a valid ${want}`);
      lines.push(`${e.mode} ${e.sha}\t${e.path}`);
    }
    if (!bareGit(w, ["update-index", "--index-info"], { env, input: `${lines.join("\n")}\n` }).ok) return invalid("tree could not be built");
    const tree = wrote(w, bareGit(w, ["write-tree"], { env }), "tree");
    return tree.ok
      ? { status: 201, body: { sha: tree.out, url: `${w.htmlBase}/api/v3/repos/${w.owner}/${w.repo}/git/trees/${tree.out}`, tree: [], truncated: false } }
      : invalid("could not write the tree", 500);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function createCommit(w: GitHubWorld, b: any): RouteResult {
  if (!isSha(b.tree) || typeOf(w, b.tree) !== "tree") return invalid("Tree SHA does not exist");
  const parents: string[] = b.parents ?? [];
  if (parents.some((p) => !isSha(p) || typeOf(w, p) !== "commit")) return invalid("Parent SHA does not exist or is not a commit object");
  // Without author or committer, GitHub uses the authenticated app's bot, and signs the commit.
  const bot = w.user(w.botLogin);
  const author = b.author ?? { name: bot.login, email: `${bot.id}+${bot.login}@users.noreply.github.com` };
  const committer = b.committer ?? { name: "GitHub", email: "noreply@github.com" };
  const env = { GIT_AUTHOR_NAME: author.name, GIT_AUTHOR_EMAIL: author.email, GIT_COMMITTER_NAME: committer.name, GIT_COMMITTER_EMAIL: committer.email };
  const r = wrote(w, bareGit(w, ["commit-tree", b.tree, ...parents.flatMap((p) => ["-p", p]), "-F", "-"], { input: String(b.message), env }), "commit");
  if (!r.ok) return invalid("could not create the commit", 500);
  const signed = b.author === undefined && b.committer === undefined && b.signature === undefined;
  w.apiCommits.push({ sha: r.out, author, committer, message: String(b.message), tree: b.tree, parents, verified: signed });
  const verification = signed
    ? { verified: true, reason: "valid", signature: "-----BEGIN PGP SIGNATURE-----\n(fake)\n-----END PGP SIGNATURE-----", payload: null, verified_at: w.now() }
    : { verified: false, reason: "unsigned", signature: null, payload: null, verified_at: null };
  return {
    status: 201,
    body: {
      sha: r.out,
      node_id: `C_${r.out.slice(0, 8)}`,
      url: "",
      html_url: `${w.htmlBase}/${w.owner}/${w.repo}/commit/${r.out}`,
      author: { ...author, date: w.now() },
      committer: { ...committer, date: w.now() },
      message: String(b.message),
      tree: { sha: b.tree, url: "" },
      parents: parents.map((sha) => ({ sha, url: "", html_url: "" })),
      verification,
    },
  };
}

function refView(w: GitHubWorld, ref: string, sha: string): unknown {
  return { ref, node_id: `REF_${ref}`, url: `${w.htmlBase}/api/v3/repos/${w.owner}/${w.repo}/git/${ref}`, object: { sha, type: "commit", url: "" } };
}

function headOf(w: GitHubWorld, ref: string): string | null {
  const r = bareGit(w, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
  return r.ok && r.out ? r.out : null;
}

export const GIT_DATA_ROUTES: [string, string, Handler][] = [
  ["POST", "/repos/:o/:r/git/blobs", (w, _p, b) => createBlob(w, b)],
  ["POST", "/repos/:o/:r/git/trees", (w, _p, b) => createTree(w, b)],
  ["POST", "/repos/:o/:r/git/commits", (w, _p, b) => createCommit(w, b)],
  [
    "GET",
    "/repos/:o/:r/git/commits/:sha",
    (w, p) => {
      if (!isSha(p.sha) || typeOf(w, p.sha) !== "commit") return notFound;
      const [tree, parents, ...message] = bareGit(w, ["show", "-s", "--format=%T%n%P%n%B", p.sha]).out.split("\n");
      const parentList = parents.split(" ").filter(Boolean);
      return {
        status: 200,
        body: { sha: p.sha, tree: { sha: tree, url: "" }, parents: parentList.map((sha) => ({ sha, url: "", html_url: "" })), message: message.join("\n") },
      };
    },
  ],
  [
    "GET",
    "/repos/:o/:r/git/ref/:ref*",
    (w, p) => {
      const sha = headOf(w, `refs/${p.ref}`);
      return sha ? { status: 200, body: refView(w, `refs/${p.ref}`, sha) } : notFound;
    },
  ],
  [
    "POST",
    "/repos/:o/:r/git/refs",
    (w, _p, b) => {
      const ref = String(b.ref);
      if (!/^refs\/[^/]+\/.+/.test(ref) || !bareGit(w, ["check-ref-format", ref]).ok)
        return invalid("ref must start with 'refs' and have at least two slashes.");
      if (!isSha(b.sha) || typeOf(w, b.sha) !== "commit") return invalid("Object does not exist");
      if (headOf(w, ref)) return invalid("Reference already exists");
      bareGit(w, ["update-ref", ref, b.sha, ""]);
      return { status: 201, body: refView(w, ref, b.sha) };
    },
  ],
  [
    "PATCH",
    "/repos/:o/:r/git/refs/:ref*",
    (w, p, b) => {
      const ref = `refs/${p.ref}`;
      const current = headOf(w, ref);
      if (!current) return invalid("Reference does not exist");
      if (!isSha(b.sha) || typeOf(w, b.sha) !== "commit") return invalid("Object does not exist");
      if (b.force !== true && !bareGit(w, ["merge-base", "--is-ancestor", current, b.sha]).ok) return invalid("Update is not a fast forward");
      bareGit(w, ["update-ref", ref, b.sha, current]);
      return { status: 200, body: refView(w, ref, b.sha) };
    },
  ],
];
