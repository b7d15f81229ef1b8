/** Types of scripts/build-stamp.mjs (plain JavaScript: npm start runs it untranspiled). */
export declare const root: string;
export declare const dist: string;
export declare const serverBundle: string;
export declare function inputsHash(): string;
export declare function isBuilt(stamp?: string): boolean;
export declare function writeStamp(stamp: string): void;
