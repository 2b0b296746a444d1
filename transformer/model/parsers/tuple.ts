import { ElementFlags } from "../../checker/flags";
import type { Model } from "../model";
import type { TypeParser } from "../parser";
import { modelWithoutUndefined } from "../optional";
import { isUninhabited } from "../uninhabited";

/** Tuples, with optional and rest elements. */
export const tupleParser: TypeParser = {
  construct: "tuples",
  supports: (type, ctx) => ctx.checker.isTupleType(type),
  parse: (type, ctx) => {
    const { elementFlags, minLength } = ctx.checker.tupleShape(type);
    const elementTypes = ctx.checker.typeArguments(type);
    const elements: Model[] = [];
    let rest: Model | undefined;
    for (let i = 0; i < elementTypes.length; i++) {
      const flags = elementFlags[i];
      if (flags & ElementFlags.Variadic) {
        return ctx.unsupported(type, "spreads a type parameter");
      }
      if (flags & ElementFlags.Rest) {
        if (i !== elementTypes.length - 1) {
          return ctx.unsupported(
            type,
            "has a rest element before other elements, which JSON Schema cannot express exactly",
          );
        }
        rest = ctx.modelOf(elementTypes[i]);
      } else {
        // An optional element is absent or of its type: JSON has no `undefined` to put there.
        const element =
          flags & ElementFlags.Optional ? modelWithoutUndefined(elementTypes[i], ctx) : ctx.modelOf(elementTypes[i]);
        // A required element with no values: no tuple has one.
        if (flags & ElementFlags.Required && isUninhabited(element))
          return ctx.unsupported(type, `has no values (its element ${i} has none)`, "uninhabited");
        elements.push(element);
      }
    }
    return { kind: "tuple", elements, minItems: minLength, rest };
  },
};
