import ts from "typescript";
import type { Model } from "../model";
import type { TypeParser } from "../modeler";
import { modelWithoutUndefined } from "../optional";

/** Tuples, with optional and rest elements. */
export const tupleParser: TypeParser = {
  construct: "tuples",
  supports: (type, ctx) => ctx.checker.isTupleType(type),
  parse: (type, ctx) => {
    const reference = type as ts.TypeReference;
    const target = reference.target as ts.TupleType;
    const elementTypes = ctx.checker.getTypeArguments(reference);
    const elements: Model[] = [];
    let rest: Model | undefined;
    for (let i = 0; i < elementTypes.length; i++) {
      const flags = target.elementFlags[i];
      if (flags & ts.ElementFlags.Variadic) {
        return ctx.unsupported(type, "spreads a type parameter");
      }
      if (flags & ts.ElementFlags.Rest) {
        if (i !== elementTypes.length - 1) {
          return ctx.unsupported(type, "has a rest element before other elements, which JSON Schema cannot express exactly");
        }
        rest = ctx.modelOf(elementTypes[i]);
      } else {
        // An optional element is absent or of its type: JSON has no `undefined` to put there.
        elements.push(flags & ts.ElementFlags.Optional ? modelWithoutUndefined(elementTypes[i], ctx) : ctx.modelOf(elementTypes[i]));
      }
    }
    return { kind: "tuple", elements, minItems: target.minLength, rest };
  },
};
