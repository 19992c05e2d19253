/** trace/: what leaves the process about a session — redacted, sanitised, priced, byte-limited. */
export { redact, redactDeep, secretsFromEnv, MIN_SECRET_LENGTH, type RedactionKind } from "./redact.js";
export { sanitizeUntrusted, MAX_UNTRUSTED_CHARS } from "./sanitize.js";
export {
  estimateCost,
  loadPriceTable,
  findPrice,
  DEFAULT_PRICES,
  PriceConfigError,
  type ModelPrice,
  type PriceTable,
} from "./cost.js";
export { estimateTokens, estimateMessagesTokens } from "./tokens.js";
export { CHECK_RUN_MAX_BYTES, utf8Bytes, truncateUtf8, headUtf8, tailUtf8, wellFormed, fitRows } from "./byte-limit.js";
export { timelineRows, type TimelineRow } from "./timeline.js";
export { renderCheckRun, type CheckRunOutput, type RenderOptions } from "./check-run.js";
export { exportTrace, parseJsonlTrace, type TraceFormat } from "./export.js";
export { emitSpans, TRACER_NAME } from "./otel.js";
export { setupTracing, tracesUrl, type TracingHandle } from "./otel-setup.js";
