import { findAgentLine, parseCommand } from "../../../src/github/inbound/command.js";

describe("parseCommand", () => {
  test("`/agent budget` shows the spend; `+<usd>` raises it; anything else is help", () => {
    expect(parseCommand("/agent budget")).toEqual({ kind: "budget", raiseUsd: null });
    expect(parseCommand("/agent budget +5")).toEqual({ kind: "budget", raiseUsd: 5 });
    expect(parseCommand("/agent budget +$2.50")).toEqual({ kind: "budget", raiseUsd: 2.5 });
    for (const bad of ["/agent budget 5", "/agent budget +0", "/agent budget +-1", "/agent budget +20000", "/agent budget +1.005", "/agent budget +5 more"])
      expect(parseCommand(bad)).toMatchObject({ kind: "help" });
  });

  test("`/agent fix this` starts a session on the issue itself", () => {
    expect(parseCommand("/agent fix this")).toEqual({ kind: "start", task: null });
  });
  test("`/agent fix this.` with a trailing period is the same", () => {
    expect(parseCommand("/agent fix this.")).toEqual({ kind: "start", task: null });
  });
  test("`/agent fix the parser` is a task, not `fix this`", () => {
    expect(parseCommand("/agent fix the parser")).toEqual({ kind: "start", task: "fix the parser" });
  });
  test("`/agent <task>` carries the task text, with the following lines", () => {
    expect(parseCommand("/agent rename foo to bar\nin every file")).toEqual({ kind: "start", task: "rename foo to bar\nin every file" });
  });
  test("`/agent approve` approves whatever is pending", () => {
    expect(parseCommand("/agent approve")).toEqual({ kind: "approve", ref: null });
  });
  test("`/agent approve <hash>` names what it approves", () => {
    expect(parseCommand("/agent approve 1A2B3C4D5E6F")).toEqual({ kind: "approve", ref: "1a2b3c4d5e6f" });
  });
  test("`/agent approve executable-config [<hash>]` approves executable configuration too; with prose it is not an approval", () => {
    expect(parseCommand("/agent approve executable-config")).toEqual({ kind: "approve", ref: null, executableConfig: true });
    expect(parseCommand("/agent approve Executable-Config 1A2B3C4D5E6F")).toEqual({ kind: "approve", ref: "1a2b3c4d5e6f", executableConfig: true });
    expect(parseCommand("/agent approve executable-config sure, why not")).toEqual({
      kind: "help",
      why: "`approve executable-config` takes no text (optionally the short hash of the batch)",
    });
  });
  test("`/agent approve` with prose is not an approval", () => {
    expect(parseCommand("/agent approve but only the first part")).toEqual({
      kind: "help",
      why: "`approve` takes no text (optionally the short hash it approves)",
    });
  });
  test("`/agent deny <reason>` keeps the reason", () => {
    expect(parseCommand("/agent deny do not touch the lockfile")).toEqual({ kind: "deny", reason: "do not touch the lockfile" });
  });
  test("`/agent deny` without a reason asks for one", () => {
    expect(parseCommand("/agent deny")).toEqual({ kind: "help", why: "`deny` needs a reason" });
  });
  test("`/agent revise <feedback>` keeps multi-line feedback", () => {
    expect(parseCommand("/agent revise also update the docs\n\nand the changelog")).toEqual({
      kind: "revise",
      feedback: "also update the docs\nand the changelog",
    });
  });
  test("`/agent revise` without feedback asks for it", () => {
    expect(parseCommand("/agent revise")).toEqual({ kind: "help", why: "`revise` needs feedback" });
  });
  test.each(["stop", "status", "retry"])("`/agent %s`", (verb) => {
    expect(parseCommand(`/agent ${verb}`)).toEqual({ kind: verb });
  });
  test("`/agent stop now` is not a stop", () => {
    expect(parseCommand("/agent stop now")).toEqual({ kind: "help", why: "`stop` takes no arguments" });
  });
  test("a bare `/agent` gets help", () => {
    expect(parseCommand("/agent")).toEqual({ kind: "help", why: "no command given" });
  });
  test("`/agent help` gets help", () => {
    expect(parseCommand("/agent help")).toEqual({ kind: "help", why: "help requested" });
  });
  test("verbs are case-insensitive", () => {
    expect(parseCommand("/agent APPROVE")).toEqual({ kind: "approve", ref: null });
  });
  test("a comment without `/agent` is no command", () => {
    expect(parseCommand("LGTM, thanks!")).toBeNull();
  });
  test("`/agents` is not `/agent`", () => {
    expect(parseCommand("/agents approve")).toBeNull();
  });
  test("`/agent` in the middle of a sentence is no command", () => {
    expect(parseCommand("please run /agent approve later")).toBeNull();
  });
  test("a quoted command in a reply is no command", () => {
    expect(parseCommand("> /agent approve\nwhy was this approved?")).toBeNull();
  });
  test("a command shown in a fenced code block is no command (explaining how to approve is not approving)", () => {
    expect(parseCommand("To approve, a maintainer writes:\n```\n/agent approve\n```\nbut not yet.")).toBeNull();
    expect(parseCommand("~~~text\n/agent stop\n~~~")).toBeNull();
    expect(findAgentLine("```\n/agent fix this\n```")).toBeNull();
  });
  test("a command after a closed code block still counts; an unclosed block runs to the end", () => {
    expect(parseCommand("```sh\nnpm test\n```\n/agent approve")).toEqual({ kind: "approve", ref: null });
    expect(parseCommand("````\n```\n/agent approve\n````\n/agent status")).toEqual({ kind: "status" });
    expect(parseCommand("```\n/agent approve")).toBeNull();
  });
  test("feedback after the command keeps its code blocks", () => {
    expect(parseCommand("/agent revise use this:\n```\nconst x = 1;\n```")).toEqual({ kind: "revise", feedback: "use this:\n```\nconst x = 1;\n```" });
  });
  test("the command may follow other lines", () => {
    expect(parseCommand("Thanks for the plan.\n/agent approve")).toEqual({ kind: "approve", ref: null });
  });
  test("only the first `/agent` line counts", () => {
    expect(parseCommand("/agent status\n/agent stop")).toEqual({ kind: "status" });
  });
  test("lines after `/agent stop` are commentary", () => {
    expect(parseCommand("/agent stop\nthis is going the wrong way")).toEqual({ kind: "stop" });
  });
  test("findAgentLine returns the text after /agent on the first such line", () => {
    expect(findAgentLine("Bug report\n\n/agent fix this\n")).toBe("fix this");
  });
});
