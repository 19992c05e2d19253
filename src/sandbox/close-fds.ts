/**
 * Every descriptor above `keepUpTo` is closed before the backend starts. Node marks the descriptors it
 * opens close-on-exec, but not all of those it inherited: a descriptor that Patchgate's own parent
 * left open (a shell's `exec 50>file`, a supervisor's socket, an IPC channel) would otherwise pass
 * through bwrap, which forwards whatever it is given, into the sandboxed command. Node cannot close
 * descriptors between fork and exec, so bash does it: it lists its own descriptors and closes each
 * one above `keepUpTo` (the stdio and the cgroup handshake pipes) before exec'ing the backend.
 */
const SCRIPT = (keepUpTo: number): string =>
  `for f in /proc/self/fd/*; do n=\${f##*/}; if [ "$n" -gt ${keepUpTo} ] && [ -h "$f" ]; then exec {n}>&-; fi; done; exec "$@"`;

export interface ClosingCommand {
  command: string;
  args: string[];
}

/** `command args…` run through `bash` so that it starts with descriptors 0…keepUpTo only. */
export function closingDescriptors(bash: string, keepUpTo: number, command: string, args: readonly string[]): ClosingCommand {
  if (!(Number.isInteger(keepUpTo) && keepUpTo >= 2)) throw new Error(`keepUpTo must be an integer ≥ 2: ${keepUpTo}`);
  return { command: bash, args: ["--noprofile", "--norc", "-c", SCRIPT(keepUpTo), "patchgate-close-fds", command, ...args] };
}
