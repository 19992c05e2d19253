/**
 * The few lines of a test run that the model, the timeline and the PR need: how it ended, which
 * tests failed (where the runner names them) and the last lines of output. Bounded, because it is
 * stored in every TestRun event and shown in the check run.
 */

export const SUMMARY_MAX_BYTES = 2048;
const TAIL_LINES = 20;
const MAX_LINE_CHARS = 200;
const MAX_NAMES = 30;

// One pattern per runner's way of naming a failure; the first capture group is the name.
const FAILURE_PATTERNS: RegExp[] = [
  /^\s*FAIL\s+(\S+)/, // jest: "FAIL src/a.test.ts"
  /^\s*[✕×]\s+(.+?)(?:\s+\(\d+(?:\.\d+)?\s*m?s\))?$/, // jest: "✕ adds (3 ms)"
  /^\s*✖\s+(.+?)(?:\s+\(\d+(?:\.\d+)?m?s\))?$/, // node:test spec reporter
  /^\s*not ok \d+\s*-?\s*(.+?)(?:\s+#.*)?$/, // node:test TAP
  /^(?:FAILED|ERROR)\s+(\S+::\S+)/, // pytest short summary
  /^\s*--- FAIL:\s+(\S+)/, // go test
  /^test\s+(\S+)\s+\.\.\.\s+FAILED$/, // cargo test
];

// Colour codes from runners that think they talk to a terminal.
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

export function summarizeTestRun(stdout: string, stderr: string, exitCode: number | null): string {
  const lines = `${stdout}\n${stderr}`
    .replace(ANSI, "")
    .split("\n")
    .map((l) => l.replace(/\r$/, "").trimEnd())
    .filter((l) => l.trim() !== "");
  const head = exitCode === null ? "ended without an exit code (killed or timed out)" : `exit code ${exitCode}`;
  const names = failingTests(lines);
  const parts = [head];
  if (names.length > 0) parts.push(`failing tests (${names.length}):`, ...names.slice(0, MAX_NAMES).map((n) => `- ${clip(n)}`));
  if (names.length > MAX_NAMES) parts.push(`- … and ${names.length - MAX_NAMES} more`);
  const tail = lines.slice(-TAIL_LINES).map(clip);
  return fit(parts, tail);
}

export function failingTests(lines: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const line of lines) {
    for (const re of FAILURE_PATTERNS) {
      const name = re.exec(line)?.[1]?.trim();
      if (name) {
        seen.add(name);
        break;
      }
    }
  }
  return [...seen];
}

// The failing names matter most, so the tail gives way first, oldest lines first.
function fit(parts: string[], tail: string[]): string {
  let tailLines = [...tail];
  const render = (): string => (tailLines.length > 0 ? [...parts, "last lines:", ...tailLines] : parts).join("\n");
  while (tailLines.length > 0 && Buffer.byteLength(render()) > SUMMARY_MAX_BYTES) tailLines = tailLines.slice(1);
  const text = render();
  if (Buffer.byteLength(text) <= SUMMARY_MAX_BYTES) return text;
  return `${Buffer.from(text).subarray(0, SUMMARY_MAX_BYTES - 4).toString("utf8").replace(/\uFFFD+$/, "")}\n…`;
}

function clip(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS - 1)}…` : line;
}
