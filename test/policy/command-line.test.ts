import { parseCommandLine, type CommandLine } from "../../src/policy/shell/command-line.js";

function parsed(text: string): CommandLine {
  const r = parseCommandLine(text);
  if (!r.ok) throw new Error(`expected ${JSON.stringify(text)} to parse: ${r.error.message}`);
  return r.line;
}
const argvs = (text: string) => parsed(text).parts.map((p) => p.argv);

describe("splitting into simple commands", () => {
  test("a single command", () => {
    expect(parsed("ls -la src")).toEqual({
      parts: [{ argv: ["ls", "-la", "src"], text: "ls -la src", pipedFromPrevious: false, assignments: [], redirects: [], inputFrom: [] }],
      hasSubshell: false,
      redirects: [],
    });
  });
  test.each([";", "&&", "||", "&"])("splits on %s", (op) => {
    expect(argvs(`a 1 ${op} b 2`)).toEqual([
      ["a", "1"],
      ["b", "2"],
    ]);
  });
  test("pipes mark the receiving stage and link its input", () => {
    const { parts } = parsed("cat f | grep x |& sort");
    expect(parts.map((p) => [p.argv[0], p.pipedFromPrevious, p.inputFrom])).toEqual([
      ["cat", false, []],
      ["grep", true, [0]],
      ["sort", true, [1]],
    ]);
  });
  test("an unquoted newline separates commands; a quoted one does not", () => {
    expect(argvs("ls\nrm -rf x")).toEqual([["ls"], ["rm", "-rf", "x"]]);
    expect(argvs('echo "a\nb"')).toEqual([["echo", "a\nb"]]);
  });
  test("backslash-newline continues the command", () => {
    expect(argvs("npm \\\n  test")).toEqual([["npm", "test"]]);
  });
  // sh starts a comment only where a word starts; shell-quote alone hid the rest of the line.
  test.each([
    [
      "ls a#b; rm x",
      [
        ["ls", "a#b"],
        ["rm", "x"],
      ],
    ],
    [
      "ls a#;rm x",
      [
        ["ls", "a#"],
        ["rm", "x"],
      ],
    ],
    [
      "ls a\\ #b; rm x",
      [
        ["ls", "a #b"],
        ["rm", "x"],
      ],
    ],
    [
      "ls 'a'#b; rm x",
      [
        ["ls", "a#b"],
        ["rm", "x"],
      ],
    ],
    [
      "echo $#; rm x",
      [
        ["echo", "$#"],
        ["rm", "x"],
      ],
    ],
    ["ls #a; rm x", [["ls"]]],
    ["ls;#a\nrm x", null],
  ])("%j: a # inside a word is text, not a comment", (text, expected) => {
    if (expected === null) expect(parseCommandLine(text).ok).toBe(false);
    else expect(argvs(text)).toEqual(expected);
  });
  test.each(["echo a\r#x; rm x", "ls\rrm x", "ls\u000brm x", "ls\u00a0rm x"])("%j: unquoted whitespace sh does not split at is refused", (text) => {
    expect(parseCommandLine(text).ok).toBe(false);
  });
  test("CRLF line ends still split lines; a CR inside quotes is text", () => {
    expect(argvs("ls\r\nrm x")).toEqual([["ls"], ["rm", "x"]]);
    expect(argvs('echo "a\rb"')).toEqual([["echo", "a\rb"]]);
  });
  test("a comment ends at its line", () => {
    expect(argvs("ls # see below\nrm x")).toEqual([["ls"], ["rm", "x"]]);
  });
  test("quotes are removed and variables stay as text", () => {
    expect(argvs(`echo "a b" 'c d' $HOME "\${USER}"`)).toEqual([["echo", "a b", "c d", "$HOME", "$USER"]]);
  });
  test("globs stay as patterns", () => {
    expect(argvs("ls src/*.ts")).toEqual([["ls", "src/*.ts"]]);
  });
});

describe("finding the program", () => {
  test("NAME=value prefixes are skipped and kept as assignments", () => {
    const [p] = parsed("FOO=1 BAR=two npm test").parts;
    expect([p.argv, p.assignments, p.text]).toEqual([["npm", "test"], ["FOO=1", "BAR=two"], "FOO=1 BAR=two npm test"]);
  });
  test("an assignment after the program is an argument", () => {
    expect(argvs("make CC=gcc")).toEqual([["make", "CC=gcc"]]);
  });
  test("reserved words before a command are skipped: then rm is rm", () => {
    expect(argvs("if true; then rm -rf x; fi")).toEqual([["true"], ["rm", "-rf", "x"]]);
    expect(argvs("for f in a b; do cat $f; done")).toEqual([
      ["for", "f", "in", "a", "b"],
      ["cat", "$f"],
    ]);
    expect(argvs("{ ls; ! grep x f; }")).toEqual([["ls"], ["grep", "x", "f"]]);
  });
});

describe("looking through wrappers", () => {
  test.each([
    ["env FOO=1 git push", ["git", "push"]],
    ["env -i -u HOME git push", ["git", "push"]],
    ["nice -n 10 git push", ["git", "push"]],
    ["nice -5 git push", ["git", "push"]],
    ["timeout 30 git push", ["git", "push"]],
    ["timeout -s KILL -k 5 30s git push", ["git", "push"]],
    ["xargs -0 -n 1 git push", ["git", "push"]],
    ["xargs -I{} git push {}", ["git", "push", "{}"]],
    ["xargs --replace git push {}", ["git", "push", "{}"]],
    ["nohup git push", ["git", "push"]],
    ["exec git push", ["git", "push"]],
    ["command git push", ["git", "push"]],
    ["stdbuf -oL git push", ["git", "push"]],
    ["find . -name x -exec git push {} ;", ["git", "push", "{}"]],
  ])("%s → the inner command is a part", (text, inner) => {
    const parts = argvs(text);
    expect(parts).toHaveLength(2);
    expect(parts[1]).toEqual(inner);
  });
  test("env's assignments are carried to the inner command", () => {
    expect(parsed("env PATH=. ls").parts[1]).toMatchObject({ argv: ["ls"], assignments: ["PATH=."] });
  });
  test("xargs without a command runs echo", () => {
    expect(argvs("xargs")).toEqual([["xargs"], ["echo"]]);
  });
  test("wrappers nest", () => {
    expect(argvs("timeout 5 nice env A=1 git push").map((a) => a[0])).toEqual(["timeout", "nice", "env", "git"]);
  });
  test.each([
    "bash -c 'git push'",
    'sh -c "git push"',
    "bash -ec 'git push'",
    "bash -o pipefail -c 'git push'",
    "eval git push",
    "env -S 'git push'",
    "bash <<< 'git push'",
  ])("%s: the command string is parsed", (text) => {
    expect(argvs(text).at(-1)).toEqual(["git", "push"]);
  });
  test("bash running a file has no inner command", () => {
    expect(argvs("bash build.sh")).toEqual([["bash", "build.sh"]]);
  });
  test("command -v only looks a name up", () => {
    expect(argvs("command -v git")).toEqual([["command", "-v", "git"]]);
  });
  test("the inner command of a piped wrapper reads the same pipe", () => {
    const { parts } = parsed("cat x | timeout 3 bash");
    expect(parts[2]).toMatchObject({ argv: ["bash"], pipedFromPrevious: true, inputFrom: [0] });
  });
});

describe("subshells, substitutions, redirections", () => {
  test("a subshell's commands are parts and set hasSubshell", () => {
    const line = parsed("(cd a && ls) | wc -l");
    expect([line.parts.map((p) => p.argv), line.hasSubshell]).toEqual([[["cd", "a"], ["ls"], ["wc", "-l"]], true]);
    expect(line.parts[2].inputFrom).toEqual([0, 1]);
  });
  test("$(…) is a part that feeds the command using it", () => {
    const line = parsed("echo $(whoami)");
    expect(line.parts.map((p) => [p.argv, p.inputFrom])).toEqual([
      [["whoami"], []],
      [["echo", "$(…)"], [0]],
    ]);
    expect(line.hasSubshell).toBe(true);
  });
  test("$(…) inside double quotes and backticks are parts", () => {
    expect(argvs('echo "$(id -u)"')[0]).toEqual(["id", "-u"]);
    expect(argvs("echo `id -u`")[0]).toEqual(["id", "-u"]);
    expect(argvs("echo `echo \\`id\\``")[0]).toEqual(["id"]);
  });
  test("process substitution feeds its command", () => {
    const line = parsed("diff <(ls a) <(ls b)");
    expect(line.parts.map((p) => [p.argv[0], p.inputFrom])).toEqual([
      ["ls", []],
      ["ls", []],
      ["diff", [0, 1]],
    ]);
  });
  test("redirections are recorded per part and for the line, fd included", () => {
    const line = parsed("npm test > out.txt 2>&1 < in.txt");
    expect(line.parts[0].argv).toEqual(["npm", "test"]);
    expect(line.parts[0].redirects).toEqual([
      { op: ">", target: "out.txt" },
      { op: ">&", fd: "2", target: "1" },
      { op: "<", target: "in.txt" },
    ]);
    expect(line.redirects).toEqual(["> out.txt", "2>&1", "< in.txt"]);
  });
  test("a function definition is a part of its own, its body parts follow", () => {
    expect(argvs("f() { ls; }; f")).toEqual([["function", "f", "{", "ls", ";", "}"], ["ls"], ["f"]]);
  });
});

describe("parse errors", () => {
  test.each([
    ["", "empty"],
    ["   ", "empty"],
    ["echo 'open", "unterminated_quote"],
    ['echo "open', "unterminated_quote"],
    ["echo `open", "unterminated_quote"],
    ["cat <<EOF\nhi\nEOF", "heredoc"],
    ["ls |", "syntax"],
    ["&& ls", "syntax"],
    ["ls ;; ls", "syntax"],
    ["(ls", "syntax"],
    ["ls)", "syntax"],
    ["echo (x)", "syntax"],
    ["ls >", "syntax"],
    ["echo ${X:-$(id)}", "syntax"],
    ["ls\0rm", "nul_byte"],
  ])("%j → %s", (text, code) => {
    const r = parseCommandLine(text);
    expect(r.ok ? null : r.error.code).toBe(code);
  });
  test("moderate nesting parses", () => {
    expect(parseCommandLine("bash -c 'sh -c \"echo $(echo $(id))\"'").ok).toBe(true);
  });
  test("too_deep: shells nested beyond the limit", () => {
    let deep = "ls";
    for (let i = 0; i < 10; i++) deep = `bash -c ${JSON.stringify(deep)}`;
    const r = parseCommandLine(deep);
    expect(r.ok ? null : r.error.code).toBe("too_deep");
  });
  test("too_deep: thousands of wrappers", () => {
    const r = parseCommandLine("nice ".repeat(5000) + "ls");
    expect(r.ok ? null : r.error.code).toBe("too_deep");
  });
  test("too_deep: thousands of parentheses are an error, not a stack overflow", () => {
    const r = parseCommandLine("(".repeat(5000) + "ls" + ")".repeat(5000));
    expect(r.ok ? null : r.error.code).toBe("too_deep");
  });
});
