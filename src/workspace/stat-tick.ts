/**
 * A timestamp is trusted only once its tick is over: a write in the same tick as the one we saw would
 * leave ctime unchanged (git's "racy" problem). Sub-second stamps tick at most every few ms; a file
 * system that stores whole seconds needs the second to be over. `nowMs` is taken before the stat.
 */
export function settled(ctimeNs: bigint, nowMs: number): boolean {
  const marginMs = ctimeNs % 1_000_000_000n === 0n ? 2_000 : 100;
  return Number(ctimeNs / 1_000_000n) < nowMs - marginMs;
}

/**
 * What stat says of an inode, as one string: any change of a directory's entries or a file's bytes
 * moves ctime, which no process can set back, and a replacement changes the inode.
 */
export function statKey(st: { dev: bigint; ino: bigint; size: bigint; mtimeNs: bigint; ctimeNs: bigint }): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}
