import ts from "typescript";
import type { TypeParser } from "../modeler";

/** `any` and `unknown`: any JSON value. */
export const anyParser: TypeParser = {
  construct: "any / unknown",
  supports: (type) => (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) !== 0,
  parse: () => ({ kind: "any" }),
};
