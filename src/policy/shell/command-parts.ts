/**
 * A command line as the policy judges it: a flat list of simple commands. Each pipeline stage, each
 * `&&`/`;` operand, each command inside a subshell or substitution, and each command a wrapper runs
 * (`timeout 5 x`, `sh -c '…'`) is a part of its own, so a rule can never be dodged by nesting.
 */
export interface CommandPart {
  /** Program onward; NAME=value prefixes are in `assignments`. Variables stay as `$NAME` text. */
  argv: string[];
  /** The part rendered back to text, for humans and for logs. */
  text: string;
  /** stdin comes from the previous stage of a pipeline. */
  pipedFromPrevious: boolean;
  /** `PATH=. ls` runs a different `ls`: the policy needs to see these. */
  assignments: string[];
  redirects: Redirect[];
  /** Indices of parts whose output this part consumes: pipe, `$(…)`, `<(…)`. Wrapped parts inherit. */
  inputFrom: number[];
  /** A wrapper changed directory first (`env -C dir`): that directory, absolute or relative to the part's parent. */
  cwd?: string;
  /** A wrapper's argv runs this part (`timeout 5 cmd`, `env -C dir cmd`), not the request itself. */
  wrapped?: boolean;
}

export interface Redirect {
  /** shell-quote operator: `>`, `>>`, `<`, `>&`, `&>`, `<<<`, … */
  op: string;
  /** File descriptor written before the operator (`2>`), if any. */
  fd?: string;
  target: string;
}
