import * as path from "node:path";

/** The package's folder. */
export const ROOT = path.resolve(__dirname, "../..");
