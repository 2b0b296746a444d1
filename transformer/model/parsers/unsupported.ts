import ts from "typescript";
import type { TypeParser } from "../modeler";

const reasons: [ts.TypeFlags, string][] = [
  [ts.TypeFlags.BigInt | ts.TypeFlags.BigIntLiteral, "is not JSON-serializable (JSON.stringify throws on bigint)"],
  [ts.TypeFlags.ESSymbol | ts.TypeFlags.UniqueESSymbol, "is not JSON-serializable (symbols are dropped)"],
  [ts.TypeFlags.Never, "has no values"],
  [ts.TypeFlags.TypeParameter, "is an unresolved type parameter"],
  // `keyof P`, `P[K]`, `P extends string ? A : B`: what they are depends on a type parameter.
  [ts.TypeFlags.Index | ts.TypeFlags.IndexedAccess | ts.TypeFlags.Conditional | ts.TypeFlags.Substitution, "depends on an unresolved type parameter"],
];

/** Types with no JSON form at all. They stay in the model so the tool's walk can report where they are. */
export const unsupportedParser: TypeParser = {
  construct: "bigint / symbol / never / type parameters and the types that depend on them",
  supports: (type) => reasons.some(([flags]) => (type.flags & flags) !== 0),
  parse: (type, ctx) => ctx.unsupported(type, reasons.find(([flags]) => type.flags & flags)![1]),
};
