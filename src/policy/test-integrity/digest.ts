import { createHash } from "node:crypto";
import type { IntegrityFinding, IntegrityReport } from "./types.js";

function canonical(f: IntegrityFinding): string {
  return JSON.stringify([f.kind, f.detector, f.path, f.message, [...f.lines]]);
}

/**
 * What an approval of the findings binds to: sha256 over the findings in a canonical order, so the
 * same findings give the same digest however they were found, and any other finding another digest.
 */
export function integrityDigest(report: IntegrityReport): string {
  const lines = report.findings.map(canonical).sort();
  return createHash("sha256").update(JSON.stringify(lines)).digest("hex");
}
