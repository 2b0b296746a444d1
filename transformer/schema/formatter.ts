/**
 * What a formatter is and what it may ask of the schema writer, apart from the writer itself
 * (writer.ts): each formatter imports these, and the writer is handed the table of formatters,
 * so that no import goes round from the writer through the formatters back to it.
 */
import type { JsonSchema } from "../../contract/contract";
import type { Definition, Model, ModelKind, ModelOf } from "../model/model";

/** What a formatter may ask of the writer: the schema of a child model, a reference to a definition. */
export interface FormatContext {
  format(model: Model): JsonSchema;
  refTo(definition: Definition): JsonSchema;
}

/** One model kind → JSON Schema. */
export interface ModelFormatter<K extends ModelKind> {
  readonly kind: K;
  format(model: ModelOf<K>, ctx: FormatContext): JsonSchema;
}

/** One formatter per model kind: the table transformer/schema/formatters/index.ts holds. */
export type Formatters = { readonly [K in ModelKind]: ModelFormatter<K> };
