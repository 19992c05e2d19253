import { jobLogDownload } from "./automation-routes.js";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { handleGitRequest, isGitRequest } from "../git/git-http-remote.js";
import { GitHubWorld } from "./github-state.js";
import { graphql, matchRoute, tooLong, type RouteResult } from "./github-routes.js";
import { parseUrl, readBody, sendJson } from "./http-util.js";

/**
 * A local GitHub: REST under `/api/v3` and GraphQL under `/api/graphql` (the GHE layout, so the app
 * reaches it through `GHE_HOST`), and git over smart HTTP at `/<owner>/<repo>.git` from bare
 * repositories in `gitRoot`. Every call lands in `world.calls`, in order.
 */
export interface FakeGitHub {
  world: GitHubWorld;
  /** `127.0.0.1:<port>`: the value for GHE_HOST (with GHE_PROTOCOL=http). */
  host: string;
  apiUrl: string;
  close(): Promise<void>;
}

/**
 * Checks a REST request against GitHub's API description: the problems found (empty when it is
 * valid). Tests plug in the OpenAPI validator of test/fakes/openapi-validator.ts.
 */
export type RequestValidator = (method: string, path: string, body: unknown) => string[];

export interface FakeGitHubOptions {
  owner: string;
  repo: string;
  gitRoot: string;
  app?: { id: number; slug: string; botId: number };
  validate?: RequestValidator;
}

const isJwt = (auth: string | undefined): boolean => /^bearer [\w-]+\.[\w-]+\.[\w-]+$/i.test(auth ?? "");

function authorised(w: GitHubWorld, path: string, auth: string | undefined): RouteResult | null {
  if (path.startsWith("/app")) return isJwt(auth) ? null : { status: 401, body: { message: "A JSON web token could not be decoded" } };
  const token = /^token (\S+)$/i.exec(auth ?? "")?.[1];
  return token && w.installed && w.tokens.includes(token) ? null : { status: 401, body: { message: "Bad credentials" } };
}

function route(
  w: GitHubWorld,
  method: string,
  path: string,
  segments: string[],
  query: URLSearchParams,
  body: any,
  req: IncomingMessage,
  validate?: RequestValidator,
): RouteResult {
  const denied = authorised(w, path, req.headers.authorization);
  if (denied) return denied;
  const errors = validate?.(method, path, body) ?? [];
  if (errors.length > 0) {
    w.invalidRequests.push({ method, path, errors });
    return { status: 422, body: { message: "Invalid request.", errors: errors.map((message) => ({ message })) } };
  }
  const outage = w.failNext.findIndex((f) => f.method === method && path.startsWith(f.pathPrefix));
  if (outage >= 0) {
    const f = w.failNext.splice(outage, 1)[0];
    if (f.retryAfter === undefined) return { status: f.status, body: { message: "Server Error (injected)" } };
    const message = "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.";
    return {
      status: f.status,
      body: { message, documentation_url: "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits" },
      headers: { "retry-after": String(f.retryAfter) },
    };
  }
  if (w.notesRefApiRefused && isNotesRefCall(method, path, body)) return { status: 404, body: { message: "Not Found" } };
  if (method === "POST" && /^\/app\/installations\/\d+\/access_tokens$/.test(path)) {
    if (!w.installed) return { status: 404, body: { message: "Not Found" } };
    const token = `ghs_fake${w.tokens.length + 1}${"x".repeat(28)}`;
    w.tokens.push(token);
    const expires = new Date(Date.now() + 3600_000).toISOString();
    return {
      status: 201,
      body: {
        token,
        expires_at: expires,
        permissions: { checks: "write", contents: "write", issues: "write", pull_requests: "write", metadata: "read" },
        repository_selection: "all",
      },
    };
  }
  if (segments[0] === "repos" && (!w.reachable || segments[1] !== w.owner || segments[2] !== w.repo)) {
    return { status: 404, body: { message: "Not Found" } };
  }
  const found = matchRoute(method, segments);
  if (!found) return { status: 404, body: { message: `the fake GitHub has no route for ${method} ${path}` } };
  const refused = method === "GET" ? null : tooLong(body);
  if (refused) return refused;
  return found.handler(w, found.params, body, query, String(req.headers.accept ?? ""));
}

/** A Git Data call on a notes ref: `GET …/git/ref/notes/…`, `PATCH …/git/refs/notes/…`, or `POST …/git/refs` creating one. */
function isNotesRefCall(method: string, path: string, body: any): boolean {
  const p = decodeURIComponent(path);
  if (/^\/repos\/[^/]+\/[^/]+\/git\/refs?\/notes\//.test(p)) return true;
  return method === "POST" && /^\/repos\/[^/]+\/[^/]+\/git\/refs$/.test(p) && typeof body?.ref === "string" && body.ref.startsWith("refs/notes/");
}

/** A test asked for the next `method` call under a path prefix to wait (git requests are method `GIT`). */
async function heldIfAsked(w: GitHubWorld, method: string, path: string, req: IncomingMessage, body: unknown = null): Promise<void> {
  const hold = w.holdNext.findIndex((x) => x.method === method && path.startsWith(x.pathPrefix) && (x.match?.(path, body) ?? true));
  if (hold < 0) return;
  const [{ reached, caller, until }] = w.holdNext.splice(hold, 1);
  caller?.({ remotePort: req.socket.remotePort ?? 0 });
  reached();
  await until;
}

async function serve(w: GitHubWorld, gitRoot: string, origin: string, req: IncomingMessage, res: ServerResponse, validate?: RequestValidator): Promise<void> {
  const url = req.url ?? "/";
  if (isGitRequest(url)) {
    await heldIfAsked(w, "GIT", url, req);
    // Served under the repository's current name only, from the bare repository it was created as.
    const served = `/${w.owner}/${w.repo}.git/`;
    const repoPath = (p: string) => (w.reachable && p.startsWith(served) ? `/${origin}${p.slice(served.length - 1)}` : null);
    handleGitRequest(
      {
        root: gitRoot,
        currentToken: () => (w.installed ? w.currentToken : null),
        validTokens: w.everyTokenValid ? () => (w.installed ? w.tokens : []) : undefined,
        repoPath,
        onService: (service, repoPath) => w.calls.push({ method: "GIT", path: `${service} ${repoPath}`, query: {}, body: null, status: 200 }),
      },
      req,
      res,
    );
    return;
  }
  const download = jobLogDownload(w, url);
  if (download) {
    w.calls.push({ method: "GET", path: url.split("?")[0], query: {}, body: null, status: download.status });
    res.writeHead(download.status, { "content-type": "text/plain; charset=utf-8" });
    res.end(download.text);
    return;
  }
  const raw = await readBody(req);
  let body: any;
  try {
    body = raw.length > 0 ? JSON.parse(raw.toString("utf8")) : null;
  } catch {
    sendJson(res, 400, { message: "Problems parsing JSON" });
    return;
  }
  const { pathname, query } = parseUrl(url);
  const method = req.method ?? "GET";
  const isGraphql = method === "POST" && (pathname === "/api/graphql" || pathname === "/graphql");
  const path = isGraphql ? "/graphql" : pathname.replace(/^\/api\/v3/, "");
  await heldIfAsked(w, method, path, req, body);
  const result = isGraphql
    ? (authorised(w, path, req.headers.authorization) ?? graphql(w, body))
    : route(w, method, path, parseUrl(path).segments, query, body ?? {}, req, validate);
  w.calls.push({ method, path, query: Object.fromEntries(query), body, status: result.status });
  if (result.raw !== undefined) {
    res.writeHead(result.status, { "content-type": "application/vnd.github.raw; charset=utf-8" });
    res.end(result.raw);
  } else sendJson(res, result.status, result.body, result.headers);
}

export async function startFakeGitHub(opts: FakeGitHubOptions): Promise<FakeGitHub> {
  const server = createServer((req, res) => {
    serve(world, opts.gitRoot, `${opts.owner}/${opts.repo}.git`, req, res, opts.validate).catch((e: unknown) => sendJson(res, 500, { message: String(e) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const bare = join(opts.gitRoot, opts.owner, `${opts.repo}.git`);
  const world = new GitHubWorld(opts.owner, opts.repo, `http://${host}`, opts.app ?? { id: 4242, slug: "patchgate", botId: 4243 }, bare);
  return {
    world,
    host,
    apiUrl: `http://${host}/api/v3`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
