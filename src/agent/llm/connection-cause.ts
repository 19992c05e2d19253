/**
 * Why a request never got an answer, in the system's own words: the errno code (ECONNREFUSED,
 * ENOTFOUND, EAI_AGAIN, ECONNRESET, a TLS code…) that fetch and the SDK bury one or two `cause`s deep
 * under "fetch failed" / "Connection error.". Null when the error carries none.
 */
function connectionCause(err: unknown): string | null {
  for (let e: unknown = err, depth = 0; e !== null && typeof e === "object" && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^(E[A-Z_]+|UND_ERR_[A-Z_]+|[A-Z_]*CERT[A-Z_]*|ERR_TLS_[A-Z_]+)$/.test(code)) return code;
    // AggregateError (one try per address, IPv4 and IPv6): the first attempt's reason speaks for them.
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0) return connectionCause(errors[0]);
  }
  return null;
}

/** The innermost message ("bad port", "getaddrinfo ENOTFOUND host"): the outer ones only say "fetch failed". */
function innermostMessage(err: unknown): string {
  let message = String(err);
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 6; e = e.cause, depth++) message = e.message;
  return message;
}

/** One line for a request that never reached the server: the URL and the cause. */
export function unreachableMessage(url: string, err: unknown): string {
  return `cannot connect to ${url} (${connectionCause(err) ?? innermostMessage(err)})`;
}
