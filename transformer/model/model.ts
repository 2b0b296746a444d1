/**
 * The internal type model: what a TypeScript type says about the JSON that goes over the
 * wire. Parsers (transformer/model/parsers/) build it from the checker's resolved types;
 * formatters (transformer/schema/formatters/) turn it into JSON Schema. Nothing else
 * crosses that line, so each side can change one construct without touching the other.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Schema annotations any node may carry (from JSDoc, or from the declaration's name). */
export interface Annotations {
  title?: string;
  description?: string;
  default?: JsonValue;
}

export type Model = (
  | { kind: "any" }
  | { kind: "string"; format?: string }
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
  /** A type that has no JSON form. Kept in the model (not thrown) so that the walk which
   *  reports it can say where it sits inside each tool's type. */
  | { kind: "unsupported"; typeText: string; reason: string }
) &
  Annotations;

export interface ObjectModel extends Annotations {
  kind: "object";
  properties: Property[];
  /** Index signature value: every other key must hold this. */
  additional?: Model;
  /** What the index signature's keys are in TypeScript (`Record<number, T>` has number keys). */
  keys?: "string" | "number";
}

export interface Property {
  name: string;
  /** Shared between every use of the type: annotations of this use live on the property. */
  model: Model;
  required: boolean;
  description?: string;
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
