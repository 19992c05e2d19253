import type { IncomingMessage, ServerResponse } from "node:http";

/** Small helpers shared by the fake servers (GitHub API, OpenAI-compatible). */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? "" : JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(text);
}

/** Splits `/a/b/c?x=1` into segments and a query map. */
export function parseUrl(url: string): { segments: string[]; query: URLSearchParams; pathname: string } {
  const u = new URL(url, "http://fake.invalid");
  return { segments: u.pathname.split("/").filter(Boolean).map(decodeURIComponent), query: u.searchParams, pathname: u.pathname };
}
