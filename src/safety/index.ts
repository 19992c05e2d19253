/** safety/: what is done to text at the boundary, in both directions — redaction, inbound sanitising, inert markdown. */
export { redact, redactDeep, secretsFromEnv, MIN_SECRET_LENGTH, type RedactionKind } from "./redact.js";
export { sanitizeUntrusted, MAX_UNTRUSTED_CHARS } from "./sanitize.js";
