// The types of layers.js, which stays plain JavaScript so that eslint.config.js can import it.
export interface Layer {
  name: string;
  folders: readonly string[];
  about: string;
}
export declare const LAYERS: readonly Layer[];
export declare function layerOf(folder: string): number;
export declare function layerZones(): { target: string; from: string[]; message: string }[];
export declare function faceZones(faced: readonly string[]): { target: string | string[]; from: string; except?: string[]; message: string }[];
export declare function layersSection(): string;
export declare function withLayersSection(doc: string): string;
