import type { Model } from "./model";

/**
 * How many schema nodes a model is written as. Models are shared (a DAG: `[T, T]` holds T's
 * model twice) while the schema writer inlines every anonymous part, so a small type can
 * stand for an exponentially large schema (`type T1 = [T0, T0]; type T2 = [T1, T1]; ...`).
 * A reference counts one: a named type is written once, in `$defs`. Memoized per model node,
 * so measuring every model the modeler builds is linear in the models' total size.
 */
export class ModelSizes {
  private readonly sizes = new WeakMap<Model, number>();

  of(model: Model): number {
    const known = this.sizes.get(model);
    if (known !== undefined) return known;
    let size = 1;
    switch (model.kind) {
      case "array":
        size += this.of(model.items);
        break;
      case "tuple":
        for (const element of model.elements) size += this.of(element);
        if (model.rest) size += this.of(model.rest);
        break;
      case "object":
        for (const property of model.properties) size += this.of(property.model);
        if (model.additional) size += this.of(model.additional);
        for (const { model: value } of model.patterns ?? []) size += this.of(value);
        break;
      case "union":
        for (const member of model.members) size += this.of(member);
        break;
    }
    this.sizes.set(model, size);
    return size;
  }
}
