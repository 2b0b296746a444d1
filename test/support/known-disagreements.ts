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
    tool: "type_arrays/echo_labelled",
    direction: "schema accepts, TypeScript rejects",
    reason: "an optional tuple element admits null (`[string, number?]`)",
    example: ["a", null],
  },
  {
    tool: "type_arrays/echo_flagged",
    direction: "schema accepts, TypeScript rejects",
    reason: "an optional tuple element admits null (`[string, boolean?, ...Integer[]]`)",
    example: ["a", null],
  },
  {
    tool: "type_arrays/echo_coordinates",
    direction: "schema accepts, TypeScript rejects",
    reason: "an optional tuple element admits null (`[x: number, y: number, z?: number]`)",
    example: [1, 2, null],
  },
  {
    tool: "type_functions_any/echo_envelope",
    direction: "schema rejects, TypeScript accepts",
    reason: "an `unknown` property is required, though undefined is one of its values and JSON leaves it out",
    example: { kind: "k" },
  },
  {
    tool: "type_functions_any/echo_loose",
    direction: "schema rejects, TypeScript accepts",
    reason: "an `any` property is required, though undefined is one of its values and JSON leaves it out",
    example: {},
  },
  {
    tool: "type_records/echo_by_hour",
    direction: "schema accepts, TypeScript rejects",
    reason: "number keys: the pattern admits exponent forms that are not String(Number(k)) (also \"1e+573\", \"-3e-736190\")",
    example: { "5e+6": { celsius: 1 } },
  },
  {
    tool: "type_records/echo_by_hour",
    direction: "schema rejects, TypeScript accepts",
    reason: "`Record<number, T>`: an array is one too; the schema admits objects only",
    example: [{ celsius: 1 }],
  },
  {
    tool: "type_template_literals/echo_user_id",
    direction: "schema accepts, TypeScript rejects",
    reason: "`${number}`: the pattern admits numbers that are not finite",
    example: "user_1e999",
  },
  {
    tool: "type_template_literals/echo_version",
    direction: "schema accepts, TypeScript rejects",
    reason: "`v${number}.${number}`: TypeScript cuts at the first \".\", the pattern backtracks (and admits non-finite numbers)",
    example: "v.5.1",
  },
  {
    tool: "type_template_literals/echo_user_account",
    direction: "schema accepts, TypeScript rejects",
    reason: "its `id` is a `user_${number}`: as type_template_literals/echo_user_id",
    example: { id: "user_1e999", email: "a@b" },
  },
  {
    tool: "type_unions/echo_contact",
    direction: "schema rejects, TypeScript accepts",
    reason: "a union of object types without a discriminant admits the keys of every member (each with its type); each anyOf branch is closed",
    example: { email: "a", phone: "b" },
  },
];

export function knownDisagreement(tool: string, direction: Direction): KnownDisagreement | undefined {
  return KNOWN_DISAGREEMENTS.find((k) => k.tool === tool && k.direction === direction);
}
