// The types of long-first-sequencer.js, which stays plain JavaScript because jest loads it untransformed.
export declare const KNOWN_LONG: ReadonlyMap<string, number>;
export declare function tierOf(path: string): "slow" | "integration" | "unit";
export interface FileFacts {
  path: string;
  failed: boolean;
  measuredMs: number | undefined;
  size: number;
}
export declare function longFirst<T extends FileFacts>(files: readonly T[]): T[];
