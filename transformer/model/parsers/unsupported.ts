import { TypeFlags } from "../../checker/flags";
import type { TypeParser } from "../parser";

/** The flags, why no JSON form, and whether every value is lost (JSON.stringify throws or drops it) or there is none. */
const reasons: [number, string, ("lost" | "uninhabited")?][] = [
  [
    TypeFlags.BigInt | TypeFlags.BigIntLiteral,
    "is not JSON-serializable (JSON.stringify throws on bigint): declare number (Number(value)) or string (String(value)) instead",
    "lost",
  ],
  [
    TypeFlags.ESSymbol | TypeFlags.UniqueESSymbol,
    "is not JSON-serializable (symbols are dropped): declare data instead, such as the symbol's description (a string)",
    "lost",
  ],
  [TypeFlags.Never, "has no values", "uninhabited"],
  [TypeFlags.TypeParameter, "is an unresolved type parameter"],
  // `keyof P`, `P[K]`, `P extends string ? A : B`: what they are depends on a type parameter.
  [
    TypeFlags.Index | TypeFlags.IndexedAccess | TypeFlags.Conditional | TypeFlags.Substitution,
    "depends on an unresolved type parameter",
  ],
];

/** Types with no JSON form at all. They stay in the model so the tool's walk can report where they are. */
export const unsupportedParser: TypeParser = {
  construct: "bigint / symbol / never / type parameters and the types that depend on them",
  supports: (type, ctx) => reasons.some(([flags]) => (ctx.checker.flags(type) & flags) !== 0),
  parse: (type, ctx) => {
    const [, reason, lost] = reasons.find(([flags]) => ctx.checker.flags(type) & flags)!;
    return ctx.unsupported(type, reason, lost);
  },
};
