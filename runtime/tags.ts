/**
 * Constraints written as types: `number & Minimum<0>`, `string & Format<"email">`,
 * `string[] & MinItems<1>`. A tag is an optional property no value ever has, so any value of
 * the base type is assignable to the tagged type; the transformer reads the tag and writes
 * the JSON Schema keyword. Unlike a JSDoc tag, a tag type survives aliases and generics.
 * Each type here is its keyword's `tagType` in contract/keywords.ts (test/unit/keywords.test.ts).
 */
import type { TAG_PROPERTY } from "../contract/contract";
import type { KNOWN_FORMATS } from "../contract/keywords";

/** A JSON Schema keyword and its value, carried in a type. (The property name is TAG_PROPERTY.) */
export type Tag<Keyword extends string, Value> = { readonly "typemcp.tag"?: { readonly [K in Keyword]: Value } };

// Keeps the literal above in step with the contract's constant (a type error if they differ).
type TagPropertyInStep = typeof TAG_PROPERTY extends keyof Tag<"k", 0> ? true : never;
const tagPropertyInStep: TagPropertyInStep = true;
void tagPropertyInStep;

/** A whole number: `"type": "integer"`, validated as one. Any number is assignable to it. */
export type Integer = number & Tag<"type", "integer">;

export type Minimum<N extends number> = Tag<"minimum", N>;
export type Maximum<N extends number> = Tag<"maximum", N>;
export type ExclusiveMinimum<N extends number> = Tag<"exclusiveMinimum", N>;
export type ExclusiveMaximum<N extends number> = Tag<"exclusiveMaximum", N>;
export type MultipleOf<N extends number> = Tag<"multipleOf", N>;
export type MinLength<N extends number> = Tag<"minLength", N>;
export type MaxLength<N extends number> = Tag<"maxLength", N>;
export type Pattern<P extends string> = Tag<"pattern", P>;
/** The formats typemcp validates (contract/keywords.ts): a build refuses any other. */
export type KnownFormat = (typeof KNOWN_FORMATS)[number];
export type Format<F extends KnownFormat> = Tag<"format", F>;
export type MinItems<N extends number> = Tag<"minItems", N>;
export type MaxItems<N extends number> = Tag<"maxItems", N>;
export type UniqueItems = Tag<"uniqueItems", true>;
