import type { JsonSchema } from "../../runtime/contract";
import type { Annotations, Definition, Model, ModelKind, ModelOf } from "../model/model";
import { formatters } from "./formatters";

/**
 * `record[key] = value`, as an own property for every key: assigning to `"__proto__"` would
 * set the record's prototype instead (`{ "__proto__": string }` is a valid TypeScript type).
 */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  if (key === "__proto__")
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}

/** A node's description and keywords, added to its schema. */
export function annotate(schema: JsonSchema, annotations: Annotations): JsonSchema {
  if (annotations.description !== undefined) schema.description = annotations.description;
  if (annotations.keywords) Object.assign(schema, annotations.keywords);
  return schema;
}

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

/**
 * Writes one root schema: formats the root model, then every definition it reaches, into
 * `$defs`. A definition that is the root itself is referred to as `#`.
 */
export class SchemaWriter implements FormatContext {
  /** The definitions this schema refers to, and their `$defs` keys (unique within this schema). */
  private readonly keys = new Map<Definition, string>();
  private readonly taken = new Set<string>();

  /** @param root the definition the root schema describes, if it describes a named type. */
  constructor(private readonly root?: Definition) {}

  format(model: Model): JsonSchema {
    const formatter = formatters[model.kind] as ModelFormatter<typeof model.kind>;
    const schema = formatter.format(model as never, this);
    return annotate(schema, model);
  }

  refTo(definition: Definition): JsonSchema {
    if (definition === this.root) return { $ref: "#" };
    let key = this.keys.get(definition);
    if (key === undefined) {
      key = definition.name;
      for (let n = 2; this.taken.has(key); n++) key = `${definition.name}_${n}`;
      this.taken.add(key);
      this.keys.set(definition, key);
    }
    return { $ref: `#/$defs/${key}` };
  }

  /** Formats a definition's own schema, titled with its TypeScript name. */
  formatDefinition(definition: Definition): JsonSchema {
    return { title: definition.title, ...this.format(definition.model) };
  }

  /** The `$defs` of everything formatted so far (and of what those reach), or undefined when none. */
  definitions(): Record<string, JsonSchema> | undefined {
    const defs: Record<string, JsonSchema> = {};
    // Formatting a definition may refer to more: Map iteration visits entries added meanwhile.
    for (const [definition, key] of this.keys) defs[key] = this.formatDefinition(definition);
    return Object.keys(defs).length ? defs : undefined;
  }
}
