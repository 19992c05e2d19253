import { readFileSync } from "node:fs";

/** One instruction of a Dockerfile, continuation lines joined. */
export interface Instruction {
  op: string;
  args: string;
}

export interface Stage {
  name: string;
  base: string;
  instructions: Instruction[];
}

/** The stages of a Dockerfile, enough of the syntax for ours: comments, `\` continuations, `FROM x AS y`. */
export function readStages(file: string): Stage[] {
  const joined = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => !/^\s*#/.test(l))
    .join("\n")
    .replace(/\\\n/g, " ");
  const stages: Stage[] = [];
  for (const line of joined.split("\n")) {
    const m = /^\s*([A-Z]+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const [, op, args] = m;
    if (op === "FROM") {
      const [base, , name] = args.trim().split(/\s+/);
      stages.push({ name: name ?? `stage${stages.length}`, base, instructions: [] });
    } else stages.at(-1)?.instructions.push({ op, args: args.trim() });
  }
  return stages;
}

/** `COPY [--from=x] [--chown=…] a b dest` → where from, what, to. */
export function copyOf(i: Instruction): { from: string | null; sources: string[]; dest: string } {
  const words = i.args.split(/\s+/);
  const from = words.find((w) => w.startsWith("--from="))?.slice("--from=".length) ?? null;
  const paths = words.filter((w) => !w.startsWith("--"));
  return { from, sources: paths.slice(0, -1), dest: paths.at(-1)! };
}

/** The JSON (exec) form of CMD or HEALTHCHECK's CMD. */
export function execForm(args: string): string[] {
  const at = args.indexOf("[");
  return JSON.parse(args.slice(at)) as string[];
}
