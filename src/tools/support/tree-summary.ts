/**
 * For a listing too large to return whole: how many files each directory one level below the listed
 * one holds, so the model can choose where to look next instead of reading a cut list. Counting
 * stops at COUNT_MAX files, and says so.
 */

const COUNT_MAX = 50_000;
const MAX_DIRECTORIES = 200;

export interface DirectoryCount {
  path: string;
  files: number;
}

export class TreeCounter {
  private readonly counts = new Map<string, number>();
  total = 0;

  constructor(private readonly start: string) {}

  /** false once COUNT_MAX files were counted: the walk may stop. */
  add(rel: string): boolean {
    const below = this.start === "" ? rel : rel.slice(this.start.length + 1);
    const slash = below.indexOf("/");
    const dir = slash < 0 ? (this.start === "" ? "." : this.start) : this.start === "" ? below.slice(0, slash) : `${this.start}/${below.slice(0, slash)}`;
    this.counts.set(dir, (this.counts.get(dir) ?? 0) + 1);
    this.total += 1;
    return this.total < COUNT_MAX;
  }

  get complete(): boolean {
    return this.total < COUNT_MAX;
  }

  /** The directories by path; files directly in the listed directory are under its own path. */
  directories(): { directories: DirectoryCount[]; more_directories?: number } {
    const all = [...this.counts].map(([path, files]) => ({ path, files })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const shown = all.slice(0, MAX_DIRECTORIES);
    return all.length > shown.length ? { directories: shown, more_directories: all.length - shown.length } : { directories: shown };
  }
}
