import { redact, redactDeep } from "../safety/redact.js";

export type LogLevel = "info" | "warn" | "error";
/** What an operator filters on (a job, a session, a delivery): flat values only. */
export type LogFields = Record<string, string | number | boolean | null>;

/**
 * One line per thing that happened. Most are `info`; a failure says so with its level and the
 * fields that find it again, so a log pipeline can alert on `error` without parsing sentences.
 */
export type AppLog = (line: string, level?: LogLevel, fields?: LogFields) => void;

/** Where the lines go: Probot's pino logger, a worker's stdout, a test's array. */
export type LogSink = (line: string, level: LogLevel, fields: LogFields) => void;

/** Logs leave the process: the line and every field are redacted like comments and check runs. */
export function redactedLog(sink: LogSink, secrets: readonly string[]): AppLog {
  return (line, level = "info", fields = {}) => sink(redact(line, secrets), level, redactDeep(fields, secrets));
}

/** Pino's argument order (fields first), so the fields become JSON keys of the record. */
export function pinoSink(log: Record<LogLevel, (fields: LogFields, msg: string) => void>): LogSink {
  return (line, level, fields) => log[level](fields, line);
}

/** A plain-text sink: the level in front when it is not `info`, the fields as JSON after. */
export function textSink(write: (text: string) => void): LogSink {
  return (line, level, fields) =>
    write(`${level === "info" ? "" : `${level.toUpperCase()} `}${line}${Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : ""}\n`);
}
