/**
 * `Wire<T>`: the JSON that a value of type `T` is, as a TypeScript type, so that the type
 * checker can be asked whether a JSON value is one (`const x: Wire<T> = <json>;`). Used only by
 * the TypeScript oracle (test/support/ts-oracle.ts), which writes such statements.
 *
 * It is `T` itself wherever `T` already describes JSON, and follows JSON.stringify elsewhere:
 * - `toJSON()`: the value is what it returns; a `Date` is a date-time string (the format is a
 *   tag the oracle checks, as it checks `Integer`: see ts-oracle.ts);
 * - tagged types (`Integer`, `string & Format<"email">`) are themselves;
 * - string enums are their values (`"red"`), which TypeScript does not let a literal be;
 * - a property whose type admits `undefined` may be left out (JSON.stringify drops it);
 * - functions and methods are not data: left out; so are class accessors, which the oracle
 *   marks with `oracle.accessor:<name>` properties (it finds them in the declarations). (A
 *   function-typed property that is required is a build error, so no type fixture has one:
 *   Wire<T> cannot tell it from a method.)
 * Private, protected, #private and static members are not in `keyof T`, hence never here.
 */
import type { Tag } from "typemcp";

type IsAny<T> = 0 extends 1 & T ? true : false;

/** A date-time string, as `Date.prototype.toJSON` writes it. */
export type DateTime = string & Tag<"format", "date-time">;

type IsFunction<T> = [NonNullable<T>] extends [never]
  ? false
  : NonNullable<T> extends (...args: never[]) => unknown
    ? true
    : false;

/** The accessors the oracle marked on a class (and its subclasses, which inherit the marks). */
type Accessors<T> = { [K in keyof T]-?: K extends `oracle.accessor:${infer A}` ? A : never }[keyof T];

type Dropped<T, K> = K extends symbol
  ? true
  : K extends Accessors<T> | `oracle.accessor:${string}`
    ? true
    : IsFunction<T[K & keyof T]>;

/** One object type of an intersection's properties (an intersection with `{}` would admit any value). */
type Flatten<T> = { [K in keyof T]: T[K] };

type WireObject<T> = Flatten<
  {
    [K in keyof T as Dropped<T, K> extends true ? never : undefined extends T[K] ? never : K]: Wire<T[K]>;
  } & {
    [K in keyof T as Dropped<T, K> extends true ? never : undefined extends T[K] ? K : never]?: Wire<
      Exclude<T[K], undefined>
    >;
  }
>;

/** An interface, so that a recursive element type (`type Json = ... | Json[]`) is resolved lazily. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an alias of the array type would be resolved eagerly
interface WireArray<E> extends ReadonlyArray<Wire<E>> {}

type WireOf<T> = T extends Date
  ? DateTime
  : T extends Tag<string, unknown>
    ? T // Integer and other tagged values: the oracle checks the tag
    : T extends string
      ? `${T}`
      : T extends number | boolean | null | undefined
        ? T
        : T extends { toJSON(...args: never[]): infer R }
          ? Wire<R>
          : T extends (...args: never[]) => unknown
            ? never
            : T extends readonly (infer E)[]
              ? E[] extends T
                ? WireArray<E> // an array, not a tuple
                : { [K in keyof T]: Wire<T[K]> }
              : WireObject<T>;

export type Wire<T> = IsAny<T> extends true ? T : unknown extends T ? T : WireOf<T>;
