/** trace/: what leaves the process about a session — priced, byte-limited, rendered (redaction lives in safety/). */
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
export { CHECK_RUN_MAX_BYTES, utf8Bytes, truncateUtf8, headUtf8, tailUtf8, wellFormed } from "./byte-limit.js";
export { timelineRows, type TimelineRow } from "./timeline.js";
export { renderCheckRun, checkRunAnnotations, checkRunTitle, type CheckRunOutput, type RenderOptions } from "./check-run.js";
export { renderReport, type Report, type ReportFormat, type ReportOptions } from "./report/report.js";
export { exportTrace, parseJsonlTrace, type TraceFormat } from "./export.js";
export { emitSpans, TRACER_NAME } from "./otel.js";
export { setupTracing, tracesUrl, type TracingHandle } from "./otel-setup.js";
