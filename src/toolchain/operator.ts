import path from "node:path";
import { bindRefusal } from "./narrow.js";
import type { ToolchainRecord } from "./types.js";
import { underUsr } from "./layouts/system.js";

/** A toolchain the operator lists in their settings (`sandbox.toolchains`), for what Patchgate does not find itself. */
export interface OperatorToolchain {
  /** Put on PATH inside the sandbox. */
  bin: string;
  /** Bound read-only; defaults to the parent of a directory named `bin` (its prefix), else `bin` itself. */
  dir?: string;
  /** For the ledger and the check run; defaults to the directory's name. */
  name?: string;
}

/** The directory bound for an operator's toolchain. */
function operatorDir(t: OperatorToolchain): string {
  if (t.dir) return path.resolve(t.dir);
  const bin = path.resolve(t.bin);
  return path.basename(bin) === "bin" ? path.dirname(bin) : bin;
}

/** Why an entry cannot be used (checked when the settings load, naming the field), or null. */
export function operatorRefusal(t: OperatorToolchain, protectedDirs: readonly string[]): string | null {
  const dir = operatorDir(t);
  const bin = path.resolve(t.bin);
  if (bin !== dir && !bin.startsWith(`${dir}/`)) return `bin ${bin} is not inside dir ${dir}`;
  const refusal = underUsr(dir) ? null : bindRefusal(dir, protectedDirs);
  return refusal && `${dir} cannot be bound: ${refusal}`;
}

export function operatorRecords(list: readonly OperatorToolchain[]): ToolchainRecord[] {
  return list.map((t, i) => {
    const dir = operatorDir(t);
    return {
      name: t.name ?? path.basename(dir),
      version: "unknown",
      path: path.resolve(t.bin),
      binds: underUsr(dir) ? [] : [dir],
      how: `operator settings (sandbox.toolchains[${i}])`,
    };
  });
}
