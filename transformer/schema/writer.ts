import type { JsonSchema } from "../../contract/contract";
import type { Definition, Model } from "../model/model";
import { annotate } from "./annotate";
import type { FormatContext, Formatters, ModelFormatter } from "./formatter";

/**
 * Writes one root schema: formats the root model, then every definition it reaches, into
 * `$defs`. A definition that is the root itself is referred to as `#`.
 */
export class SchemaWriter implements FormatContext {
  /** The definitions this schema refers to, and their `$defs` keys (unique within this schema). */
  private readonly keys = new Map<Definition, string>();
  private readonly taken = new Set<string>();

  /**
   * @param formatters handed in by whoever makes the writer (root.ts), so that the formatters,
   * which take a FormatContext, import nothing of this file.
   * @param root the definition the root schema describes, if it describes a named type.
   */
  constructor(
    private readonly formatters: Formatters,
    private readonly root?: Definition,
  ) {}

  format(model: Model): JsonSchema {
    const formatter = this.formatters[model.kind] as ModelFormatter<typeof model.kind>;
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
