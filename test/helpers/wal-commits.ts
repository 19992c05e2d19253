import { existsSync, readFileSync } from "node:fs";

/**
 * Commits in a SQLite database's write-ahead log since it was last started over, read from the file
 * itself: each commit ends with one frame whose header holds the database size (zero in the frames
 * before it), and frames still valid carry the WAL header's salts. At synchronous=FULL a commit is one
 * fsync of this file, so this counts fsyncs too. See https://sqlite.org/fileformat2.html#walformat.
 */
export function walCommits(dbFile: string): number {
  const wal = `${dbFile}-wal`;
  if (!existsSync(wal)) return 0;
  const b = readFileSync(wal);
  if (b.length < 32) return 0;
  const pageSize = b.readUInt32BE(8);
  const salts = [b.readUInt32BE(16), b.readUInt32BE(20)];
  let commits = 0;
  for (let at = 32; at + 24 + pageSize <= b.length; at += 24 + pageSize) {
    if (b.readUInt32BE(at + 8) !== salts[0] || b.readUInt32BE(at + 12) !== salts[1]) break;
    if (b.readUInt32BE(at + 4) !== 0) commits += 1;
  }
  return commits;
}
