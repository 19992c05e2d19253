import { spawn } from "node:child_process";
import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Serves bare repositories under `root` over git's smart HTTP protocol by running the real
 * `git http-backend` as a CGI program. Every request must carry the installation token the way
 * GitHub expects it (`Authorization: Basic base64("x-access-token:<token>")`), and only the token
 * minted last is accepted — a stale or missing token gets 401, like an expired token on GitHub.
 */
export interface GitRemoteOptions {
  root: string;
  currentToken: () => string | null;
  /** When set, every one of these is accepted (processes of a scale-out each hold a token of their own). */
  validTokens?: () => string[];
  /** The request path's repository part mapped to a path under `root`; null: no such repository (404). */
  repoPath?: (pathname: string) => string | null;
  /** Called for each fetch (upload-pack) and push (receive-pack) with the repository path. */
  onService?: (service: "upload-pack" | "receive-pack", repoPath: string) => void;
}

function expectedAuthorization(token: string): string {
  return `Basic ${Buffer.from(`x-access-token:${token}`).toString("base64")}`;
}

/** True when the request path looks like git traffic (`/<owner>/<repo>.git/...`). */
export function isGitRequest(url: string): boolean {
  return /^\/[^/]+\/[^/]+\.git\//.test(url);
}

export function handleGitRequest(opts: GitRemoteOptions, req: IncomingMessage, res: ServerResponse): void {
  const tokens = opts.validTokens?.() ?? [opts.currentToken()];
  if (!tokens.some((t) => t !== null && req.headers.authorization === expectedAuthorization(t))) {
    res.writeHead(401, { "www-authenticate": 'Basic realm="GitHub"', "content-type": "text/plain" });
    res.end("Invalid username or token.\n");
    return;
  }
  const url = new URL(req.url ?? "/", "http://fake.invalid");
  const pathInfo = opts.repoPath ? opts.repoPath(url.pathname) : url.pathname;
  if (pathInfo === null) {
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("Repository not found.\n");
    return;
  }
  const service = /git-(upload-pack|receive-pack)$/.exec(url.pathname)?.[1] as "upload-pack" | "receive-pack" | undefined;
  if (service && req.method === "POST") opts.onService?.(service, url.pathname.replace(/\/git-[a-z-]+$/, ""));
  const child = spawn("git", ["http-backend"], {
    env: {
      PATH: process.env.PATH ?? "/usr/bin",
      GIT_PROJECT_ROOT: opts.root,
      GIT_HTTP_EXPORT_ALL: "1",
      // http-backend allows receive-pack only for an authenticated user; we authenticated above.
      REMOTE_USER: "x-access-token",
      REMOTE_ADDR: "127.0.0.1",
      PATH_INFO: pathInfo,
      QUERY_STRING: url.search.slice(1),
      REQUEST_METHOD: req.method ?? "GET",
      CONTENT_TYPE: req.headers["content-type"] ?? "",
      HTTP_CONTENT_ENCODING: String(req.headers["content-encoding"] ?? ""),
      GIT_PROTOCOL: String(req.headers["git-protocol"] ?? ""),
      GIT_CONFIG_NOSYSTEM: "1",
      HOME: opts.root,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  req.pipe(child.stdin);
  const out: Buffer[] = [];
  child.stdout.on("data", (d: Buffer) => out.push(d));
  child.on("close", () => {
    const all = Buffer.concat(out);
    const split = all.indexOf("\r\n\r\n");
    const headerEnd = split >= 0 ? split : all.indexOf("\n\n");
    const sepLen = split >= 0 ? 4 : 2;
    if (headerEnd < 0) {
      res.writeHead(500).end("git http-backend produced no headers");
      return;
    }
    let status = 200;
    const headers: Record<string, string> = {};
    for (const line of all.subarray(0, headerEnd).toString("latin1").split(/\r?\n/)) {
      const i = line.indexOf(":");
      if (i < 0) continue;
      const name = line.slice(0, i).trim();
      const value = line.slice(i + 1).trim();
      if (name.toLowerCase() === "status") status = Number.parseInt(value, 10);
      else headers[name] = value;
    }
    res.writeHead(status, headers);
    res.end(all.subarray(headerEnd + sepLen));
  });
}
