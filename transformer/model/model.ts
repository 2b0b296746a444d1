/**
 * The internal type model: what a TypeScript type says about the JSON that goes over the
 * wire. Parsers (transformer/model/parsers/) build it from the checker's resolved types;
 * formatters (transformer/schema/formatters/) turn it into JSON Schema. Nothing else
 * crosses that line, so each side can change one construct without touching the other.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * What any node may carry besides its kind: a description (JSDoc comment) and keywords
 * written as they are into its schema — constraints (`minimum`, `pattern`, `format`, ...)
 * and annotations (`title`, `default`, `examples`, `deprecated`), from JSDoc tags and from
 * typemcp's tag types (`number & Minimum<0>`). See keywords.ts.
 */
export interface Annotations {
  description?: string;
  keywords?: Keywords;
  /** JSDoc tags typemcp cannot use (`@minimum warm`), left out of `keywords`: why, for the tool's walk to report where the node is used. */
  tagProblems?: string[];
}

export type Keywords = { [keyword: string]: JsonValue };

export type Model = (
  | { kind: "any" }
  /** `date`: a `Date`, which JSON carries as its ISO 8601 string (`format: "date-time"`): an
   *  argument of this type reaches the tool as a Date again (transformer/dates.ts, runtime/dates.ts). */
  | { kind: "string"; date?: true }
  | { kind: "number" }
  | { kind: "integer" }
  | { kind: "boolean" }
  | { kind: "null" }
  | { kind: "literal"; value: string | number | boolean }
  | { kind: "array"; items: Model }
  | { kind: "tuple"; elements: Model[]; minItems: number; rest?: Model }
  | ObjectModel
  | { kind: "union"; members: Model[] }
  | { kind: "ref"; definition: Definition }
  /** A type with no JSON form, or a declaration typemcp refuses (a malformed JSDoc tag).
   *  Kept in the model (not thrown) so that the walk which reports it can say where it sits
   *  inside each tool's type. `message` names the type: "Map<string, User> is not JSON-serializable". */
  | {
      kind: "unsupported";
      message: string;
      /** Every value of the type is lost on the way out: JSON.stringify makes it `{}`, drops it or
       *  throws (a Map, a getter-only class, a bigint, a function). A result that holds one is an
       *  error whatever `structuredOutput` says, since even its text carries no data. */
      lost?: true;
      /** No JSON value is of the type (`never`, `[never]`, `{ a: never }`, `number & { name: string }`):
       *  a union leaves it out, an array of it is empty. Alone, it is reported. */
      uninhabited?: true;
    }
) &
  Annotations;

export interface ObjectModel extends Annotations {
  kind: "object";
  properties: Property[];
  /** Index signature value: every other key must hold this. */
  additional?: Model;
  /** Keyed by numbers only (`Record<number, T>`): wrapped as a result, and an array of T is one too. */
  numberKeys?: true;
  /** Index signatures with template literal keys (`` [k: `data_${string}`]: T ``): keys matching `pattern` hold `model`. */
  patterns?: { pattern: string; model: Model }[];
}

export interface Property {
  name: string;
  /** Shared between every use of the type: annotations of this use live on the property. */
  model: Model;
  required: boolean;
  /** Typed `undefined` alone (`a?: undefined`, `a?: void`, `a?: never`): never present in JSON,
   *  not even as null. Left out of the schema, whose object is closed, so the key is refused;
   *  kept in the model so that a union's members know the key is this one's (see union.ts). */
  absent?: true;
  description?: string;
  keywords?: Keywords;
  /** The property's own JSDoc tags typemcp cannot use: see Annotations. */
  tagProblems?: string[];
}

/** A named type (interface, class, type alias): one `$defs` entry, referenced with `$ref`. */
export interface Definition {
  /** The `$defs` key: readable, no characters that need URI escaping. (Made unique per schema by the writer.) */
  name: string;
  /** The type as TypeScript prints it, e.g. `Page<User>`. */
  title: string;
  /** Filled in after the definition is registered, so recursive types can refer to it. */
  model: Model;
}

export type ModelKind = Model["kind"];
export type ModelOf<K extends ModelKind> = Extract<Model, { kind: K }>;
