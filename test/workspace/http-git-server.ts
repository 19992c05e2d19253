import { spawn } from "node:child_process";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A real smart-HTTP git server on 127.0.0.1: `git http-backend` behind a Basic-auth check, the way
 * GitHub answers a clone with a token. Every request's Authorization header is recorded.
 */
export interface GitHttpServer {
  url: string;
  seenAuth: (string | undefined)[];
  close(): Promise<void>;
}

export async function startGitHttpServer(projectRoot: string, expectedAuth: string): Promise<GitHttpServer> {
  const seenAuth: (string | undefined)[] = [];
  const server: Server = createServer((req, res) => {
    seenAuth.push(req.headers.authorization);
    if (req.headers.authorization !== expectedAuth) {
      res.writeHead(401, { "WWW-Authenticate": 'Basic realm="git"' }).end();
      return;
    }
    runBackend(projectRoot, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seenAuth,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** CGI: request to http-backend's stdin, its "Status:"/header block and body back to the client. */
function runBackend(projectRoot: string, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? "/", "http://x");
  const h = req.headers;
  const child = spawn("git", ["http-backend"], {
    env: {
      PATH: process.env.PATH,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_PROJECT_ROOT: projectRoot,
      GIT_HTTP_EXPORT_ALL: "1",
      REMOTE_USER: "token-user", // authenticated: http-backend then allows receive-pack (push)
      REMOTE_ADDR: "127.0.0.1",
      REQUEST_METHOD: req.method,
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: h["content-type"] ?? "",
      ...(h["content-length"] ? { CONTENT_LENGTH: h["content-length"] } : {}),
      ...(h["content-encoding"] ? { HTTP_CONTENT_ENCODING: h["content-encoding"] } : {}),
      ...(h["git-protocol"] ? { GIT_PROTOCOL: String(h["git-protocol"]) } : {}),
    },
  });
  req.pipe(child.stdin);
  let head = Buffer.alloc(0);
  let headersSent = false;
  child.stdout.on("data", (chunk: Buffer) => {
    if (headersSent) return void res.write(chunk);
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf("\r\n\r\n");
    if (end < 0) return;
    const headers: Record<string, string> = {};
    let status = 200;
    for (const line of head.subarray(0, end).toString("latin1").split("\r\n")) {
      const i = line.indexOf(":");
      const [k, v] = [line.slice(0, i).trim(), line.slice(i + 1).trim()];
      if (k.toLowerCase() === "status") status = Number(v.split(" ")[0]);
      else headers[k] = v;
    }
    res.writeHead(status, headers);
    headersSent = true;
    res.write(head.subarray(end + 4));
  });
  child.on("close", () => res.end());
}
