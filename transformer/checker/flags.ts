/**
 * The flags typemcp reads off types and symbols, in typemcp's own numbering, so that the type
 * model needs no TypeScript at run time: TypeScript 6 and 7 number their type flags differently
 * from 5, and TypeScript 7's `typescript` package has no enums at all. The numbering is
 * TypeScript 5's, so TypeScript 5 hands its flags over as they are; 6's and 7's are translated
 * by name (see flagTranslator).
 */

export const TypeFlag = {
  Any: 1 << 0,
  Unknown: 1 << 1,
  String: 1 << 2,
  Number: 1 << 3,
  Boolean: 1 << 4,
  Enum: 1 << 5,
  BigInt: 1 << 6,
  StringLiteral: 1 << 7,
  NumberLiteral: 1 << 8,
  BooleanLiteral: 1 << 9,
  EnumLiteral: 1 << 10,
  BigIntLiteral: 1 << 11,
  ESSymbol: 1 << 12,
  UniqueESSymbol: 1 << 13,
  Void: 1 << 14,
  Undefined: 1 << 15,
  Null: 1 << 16,
  Never: 1 << 17,
  TypeParameter: 1 << 18,
  Object: 1 << 19,
  Union: 1 << 20,
  Intersection: 1 << 21,
  Index: 1 << 22,
  IndexedAccess: 1 << 23,
  Conditional: 1 << 24,
  Substitution: 1 << 25,
  NonPrimitive: 1 << 26,
  TemplateLiteral: 1 << 27,
  StringMapping: 1 << 28,
} as const;

/** TypeScript's composite flags, from the ones above. */
export const TypeFlags = {
  ...TypeFlag,
  StringLike: TypeFlag.String | TypeFlag.StringLiteral | TypeFlag.TemplateLiteral | TypeFlag.StringMapping,
  NumberLike: TypeFlag.Number | TypeFlag.NumberLiteral | TypeFlag.Enum,
  BigIntLike: TypeFlag.BigInt | TypeFlag.BigIntLiteral,
  BooleanLike: TypeFlag.Boolean | TypeFlag.BooleanLiteral,
} as const;

export const SymbolFlag = {
  Property: 1 << 2,
  Function: 1 << 4,
  Class: 1 << 5,
  Interface: 1 << 6,
  Method: 1 << 13,
  GetAccessor: 1 << 15,
  SetAccessor: 1 << 16,
  Alias: 1 << 21,
  Prototype: 1 << 22,
  Optional: 1 << 24,
} as const;

export const SymbolFlags = { ...SymbolFlag, Accessor: SymbolFlag.GetAccessor | SymbolFlag.SetAccessor } as const;

/** A tuple's element flags (the same in every TypeScript). */
export const ElementFlags = { Required: 1, Optional: 2, Rest: 4, Variadic: 8 } as const;

/** Diagnostic categories, numbered as TypeScript 5 numbers them (and so as its diagnostics carry them). */
export const DiagnosticCategory = { Warning: 0, Error: 1, Suggestion: 2, Message: 3 } as const;
export type DiagnosticCategory = (typeof DiagnosticCategory)[keyof typeof DiagnosticCategory];

/**
 * A function from another TypeScript's flags to typemcp's, built from that TypeScript's enum
 * (name → value) for the flags named in `ours`. The same numbering is passed through as it is.
 */
export function flagTranslator(
  ours: Record<string, number>,
  theirs: Record<string, number | string>,
): (flags: number) => number {
  const pairs: [number, number][] = [];
  let same = true;
  for (const [name, bit] of Object.entries(ours)) {
    const value = theirs[name];
    if (typeof value !== "number") throw new Error(`typemcp: this TypeScript has no flag ${name}`);
    pairs.push([value, bit]);
    if (value !== bit) same = false;
  }
  if (same) return (flags) => flags;
  return (flags) => {
    let result = 0;
    for (const [theirBit, ourBit] of pairs) if (flags & theirBit) result |= ourBit;
    return result;
  };
}
