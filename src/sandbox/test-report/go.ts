import { firstOwnFrame, indentOf, messageFrom, ownPath } from "./lines.js";
import type { FrameworkParser, PathStyle, TestFailure } from "./types.js";

/**
 * `go test`: `--- FAIL: TestX (0.00s)` per failed test (subtests indented, `TestX/sub`), the test's
 * `file.go:13: message` log lines after it (or, with -v, before it, after `=== RUN TestX`), a
 * `panic:` with its goroutine stack, and `FAIL\tpackage` closing each package. A package that did
 * not compile is `FAIL\tpackage [build failed]` after its `# package` compiler errors.
 */

const FAIL = /^(\s*)--- FAIL: (\S+)/;
const RUN = /^=== (?:RUN|CONT|NAME)\s+(\S+)/;
const LOG = /^\s+(\S+\.go):(\d+): (.*)$/;
const PACKAGE = /^(FAIL|ok)\s+(\S+)(?:\s+(\[build failed\]|\[setup failed\]|[\d.]+s|\(cached\)))?/;
const BUILD_HEADER = /^# (\S+)/;

export const goParser: FrameworkParser = {
  framework: "go",
  detect: (lines) => lines.some((l) => FAIL.test(l) || /^--- PASS: /.test(l) || /^(ok|FAIL)\t\S+/.test(l)),
  parse(lines, paths) {
    const logs = new Map<string, string[]>();
    const locations = new Map<string, string>();
    const failed: { name: string; pkg?: string }[] = [];
    const builds = new Map<string, string[]>();
    let current: string | undefined;
    let building: string | undefined;
    let pendingFrom = 0;
    const failures: TestFailure[] = [];
    for (const line of lines) {
      const run = RUN.exec(line);
      const fail = FAIL.exec(line);
      const log = LOG.exec(line);
      const pkg = PACKAGE.exec(line);
      const header = BUILD_HEADER.exec(line);
      if (header) building = header[1];
      // Compiler errors are `file.go:line:col: …` lines and their indented continuations.
      else if (building && /^(\S+\.go:\d+|\s+\S)/.test(line)) (builds.get(building) ?? builds.set(building, []).get(building)!).push(line);
      else if (line.trim() !== "") building = undefined;
      if (run) current = run[1];
      else if (fail) {
        current = fail[2];
        failed.push({ name: fail[2]! });
      } else if (log && current) {
        const file = ownPath(log[1]!, paths) ?? log[1]!;
        if (!locations.has(current)) locations.set(current, `${file}:${log[2]}`);
        (logs.get(current) ?? logs.set(current, []).get(current)!).push(log[3]!);
      } else if (/^panic: /.test(line) && current) {
        (logs.get(current) ?? logs.set(current, []).get(current)!).push(line);
      } else if (current && !locations.has(current) && /^\s+\/\S+\.go:\d+/.test(line)) {
        const frame = firstOwnFrame([line], paths);
        if (frame) locations.set(current, frame);
      }
      if (pkg?.[1] === "FAIL") {
        const name = pkg[2]!;
        for (const f of failed.slice(pendingFrom)) f.pkg = name;
        pendingFrom = failed.length;
        if (pkg[3] === "[build failed]" || pkg[3] === "[setup failed]") failures.push(buildFailure(name, pkg[3], builds, paths));
      }
    }
    // A test that failed only through a subtest is named by the subtest.
    const leaves = failed.filter((f) => !failed.some((g) => g.name.startsWith(`${f.name}/`)) || logs.has(f.name));
    const tests = leaves.map((f) => {
      const message = messageFrom(logs.get(f.name) ?? []);
      const location = locations.get(f.name);
      return { name: f.name, ...(f.pkg ? { file: f.pkg } : {}), ...(message ? { message } : {}), ...(location ? { location } : {}) };
    });
    return { failures: [...tests, ...failures] };
  },
};

function buildFailure(pkg: string, why: string, builds: Map<string, string[]>, paths: PathStyle): TestFailure {
  const errors = [...builds].filter(([k]) => k === pkg).flatMap(([, v]) => v);
  const message = messageFrom(errors.filter((l) => indentOf(l) === 0));
  const location = firstOwnFrame(
    errors.map((l) => ` ${l}`),
    paths,
  );
  return { name: `${pkg} ${why}`, file: pkg, ...(message ? { message } : {}), ...(location ? { location } : {}) };
}
