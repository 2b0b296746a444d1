/**
 * Where a published schema does not yet say what the TypeScript type says: the one list that
 * test/oracle.test.ts and test/property.test.ts tolerate. Each entry is a transformer bug.
 * Each has an example, which the oracle always tries: once the schema is right on it, the
 * oracle says the entry is stale, and it goes.
 *
 * - "schema accepts, TypeScript rejects": the schema is too loose for this type.
 * - "schema rejects, TypeScript accepts": the schema is too strict for this type.
 */
export type Direction = "schema accepts, TypeScript rejects" | "schema rejects, TypeScript accepts";

export interface KnownDisagreement {
  /** `<fixture>/<echo tool>`, as `type_arrays/echo_labelled`. */
  tool: string;
  direction: Direction;
  /** What is wrong, in one line. */
  reason: string;
  /** A value on which they disagree: the oracle always tries it. */
  example: unknown;
}

export const KNOWN_DISAGREEMENTS: KnownDisagreement[] = [
  {
    tool: "type_template_literals/echo_user_id",
    direction: "schema accepts, TypeScript rejects",
    reason:
      "the `${number}` pattern bounds the exponent (e308) but not the digits before it: 5934e305 overflows to Infinity, which is no number",
    example: "user_5934e305",
  },
  {
    tool: "type_template_literals/echo_user_account",
    direction: "schema accepts, TypeScript rejects",
    reason: "the same bound, in a property: 37340730016e0000303 overflows to Infinity",
    example: { id: "user_37340730016e0000303", email: "a@b" },
  },
  {
    tool: "type_template_literals/echo_version",
    direction: "schema accepts, TypeScript rejects",
    reason: "the same bound, between two placeholders: 8576555843E0305 overflows to Infinity",
    example: "v8576555843E0305.1",
  },
];

export function knownDisagreement(tool: string, direction: Direction): KnownDisagreement | undefined {
  return KNOWN_DISAGREEMENTS.find((k) => k.tool === tool && k.direction === direction);
}
