import type { GitAuth } from "./types.js";
import { WorkspaceError } from "./workspace-error.js";

export const isUrl = (s: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(s);

/**
 * `https://x-access-token:TOKEN@host/repo` is a common way to hand git a token, and git would store
 * it in .git/config as the remote URL. The userinfo is moved into a per-call Basic auth header
 * instead, so only the bare URL is ever written to disk.
 */
export function splitCredentials(source: string, auth?: GitAuth): { url: string; auth?: GitAuth } {
  if (!isUrl(source)) return { url: source, auth };
  const u = new URL(source);
  if (!u.username && !u.password) return { url: source, auth };
  if (auth) throw new WorkspaceError("invalid_argument", "credentials both in the URL and in auth");
  const user = decodeURIComponent(u.username);
  const pass = decodeURIComponent(u.password);
  u.username = "";
  u.password = "";
  const basic = Buffer.from(`${user}:${pass}`).toString("base64");
  return { url: u.toString(), auth: { header: `Authorization: Basic ${basic}` } };
}
