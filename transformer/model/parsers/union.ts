import * as ts from "typescript";
import type { Model } from "../model";
import type { ParseContext, TypeParser } from "../modeler";

/** The model of a union of these member types; `undefined` members travel as `null`. */
export function unionModel(members: readonly ts.Type[], ctx: ParseContext): Model {
  const models: Model[] = [];
  let hasNull = false;
  for (const member of members) {
    const model = ctx.modelOf(member);
    if (model.kind === "null") {
      if (hasNull) continue;
      hasNull = true;
    }
    models.push(model);
  }
  return models.length === 1 ? models[0] : { kind: "union", members: models };
}

/** Unions, including enums (a union of enum members to the checker). `boolean` is caught earlier. */
export const unionParser: TypeParser = {
  construct: "unions and enums",
  supports: (type) => type.isUnion(),
  parse: (type, ctx) => unionModel((type as ts.UnionType).types, ctx),
};
