/**
 * What the gateway changes in a registry's answers so that the sandbox keeps coming back through it:
 * absolute URLs on the registry's own origin (npm's tarball URLs in package metadata, links of a
 * PEP 503 page, cargo's `dl` and `api`, a redirect's Location) become the same path under the
 * loopback origin. A URL of any other host is left alone: the client follows it through the egress
 * proxy, without the credential, which only the declared origin ever gets. A text answer that quotes
 * the credential has it taken out. Pure.
 */

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const DEFAULT_PORT: Record<string, string> = { "https:": "443", "http:": "80" };

/** `https://host` and `https://host:443` for a default port, else `https://host:port`. */
function originForms(origin: URL): string[] {
  const bare = `${origin.protocol}//${origin.host}`;
  return origin.port === "" ? [bare, `${bare}:${DEFAULT_PORT[origin.protocol]}`] : [bare];
}

/** Every absolute URL on `origin` in `text`, put under `loopback` (no trailing slash); `https://host.evil` is not `https://host`. */
export function rewriteOrigin(text: string, origin: URL, loopback: string): string {
  const forms = originForms(origin).sort((a, b) => b.length - a.length);
  const pattern = new RegExp(`(?:${forms.map(escapeRegExp).join("|")})(?![\\w.:-])`, "gi");
  return text.replace(pattern, loopback);
}

/** A redirect's Location, resolved against the request's URL; under the loopback only when it stays on the origin. */
export function rewriteLocation(location: string, requested: URL, loopback: string): string {
  let target: URL;
  try {
    target = new URL(location, requested);
  } catch {
    return location;
  }
  if (target.origin !== requested.origin) return location;
  return `${loopback}${target.pathname}${target.search}`;
}

/** Answers whose text may hold URLs: JSON (npm, PEP 691, cargo's config.json), HTML (PEP 503), XML, plain text. */
export function isRewritable(contentType: string | undefined): boolean {
  return /json|html|xml|text\/plain/i.test(contentType ?? "");
}

/**
 * cargo's config.json says whether the registry wants a token; the sandbox's cargo has none to give,
 * and needs none, since the gateway adds it. Said false, cargo asks without one.
 */
export function withoutCargoAuthRequired(text: string): string {
  return text.replace(/("auth-required"\s*:\s*)true/g, "$1false");
}

/**
 * Every form a credential takes in an `Authorization` value: the value, what follows its scheme, and
 * for Basic the decoded `user:password` and the password. A registry that echoes what it was sent
 * (an error page quoting the header) must not hand it to the sandbox.
 */
export function credentialForms(authorization: string): string[] {
  const space = authorization.indexOf(" ");
  const forms = [authorization, space < 0 ? authorization : authorization.slice(space + 1)];
  if (/^basic /i.test(authorization)) {
    const decoded = Buffer.from(authorization.slice(6).trim(), "base64").toString("utf8");
    forms.push(decoded, decoded.slice(decoded.indexOf(":") + 1));
  }
  // Too short to be told from ordinary text: redacting it would garble answers, and it is no credential worth the name.
  return [...new Set(forms)].filter((f) => f.length >= 6).sort((a, b) => b.length - a.length);
}

/** `text` with every form of the credential replaced. */
export function withoutCredential(text: string, forms: readonly string[]): string {
  return forms.reduce((out, form) => out.split(form).join("[REDACTED]"), text);
}
