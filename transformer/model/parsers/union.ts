import type { Symbol, Type } from "../../checker/checker";
import { TypeFlags } from "../../checker/flags";
import { withTypeDocumentation } from "../jsdoc";
import type { Model, ObjectModel } from "../model";
import type { ParseContext, TypeParser } from "../parser";
import { isUninhabited } from "../uninhabited";

function objectOf(model: Model): ObjectModel | undefined {
  const resolved = model.kind === "ref" ? model.definition.model : model;
  return resolved.kind === "object" ? resolved : undefined;
}

function isLiteral(model: Model): boolean {
  const resolved = model.kind === "ref" ? model.definition.model : model;
  return resolved.kind === "literal" || (resolved.kind === "union" && resolved.members.every(isLiteral));
}

/**
 * TypeScript's rule for an object literal given a union of object types with no
 * discriminant (a property with literal types in every member): a key of any member is a
 * known key, with that member's type. So each member's branch admits the other members'
 * keys too, optional. A discriminated union (`{ kind: "a", ... } | { kind: "b", ... }`)
 * checks the literal against the one member it picks: its branches stay as they are.
 */
function openMembers(models: Model[]): Model[] {
  const objects = models.map(objectOf);
  const present = objects.filter((o): o is ObjectModel => o !== undefined);
  if (present.length < 2) return models;
  const discriminated = present[0].properties.some(({ name }) =>
    present.every((o) => o.properties.some((p) => p.name === name && isLiteral(p.model))),
  );
  if (discriminated) return models;
  return models.map((model, i) => {
    const own = objects[i];
    if (!own || own.additional) return model;
    const foreign = new Map<string, Model[]>();
    for (const other of present) {
      if (other === own) continue;
      for (const p of other.properties) {
        // A key another member never has (`b?: undefined`) is one this member does not admit either.
        if (p.absent || own.properties.some((q) => q.name === p.name)) continue;
        foreign.set(p.name, [...(foreign.get(p.name) ?? []), p.model]);
      }
    }
    if (foreign.size === 0) return model;
    const extra = [...foreign].map(([name, types]) => ({
      name,
      model: types.length === 1 ? types[0] : ({ kind: "union", members: types } as Model),
      required: false,
    }));
    // A named member, written in place now, keeps its name as the branch's title.
    const title =
      model.kind === "ref" && own.keywords?.title === undefined
        ? { keywords: { ...own.keywords, title: model.definition.title } }
        : {};
    return { ...own, ...title, properties: [...own.properties, ...extra] };
  });
}

/** The model of a union of these member types; `undefined` members travel as `null`. */
export function unionModel(members: readonly Type[], ctx: ParseContext): Model {
  const models: Model[] = [];
  let hasNull = false;
  let uninhabited: Model | undefined;
  for (const member of members) {
    const model = ctx.modelOf(member);
    // A member with no values (`[never]`) adds none: the union is what the others are.
    if (isUninhabited(model)) {
      uninhabited ??= model;
      continue;
    }
    if (model.kind === "null") {
      if (hasNull) continue;
      hasNull = true;
    }
    models.push(model);
  }
  if (models.length === 0) return uninhabited!;
  return models.length === 1 ? models[0] : { kind: "union", members: openMembers(models) };
}

/** The enum or the type alias a union is declared as (`enum Priority`, `type Urgency = "low" | "high"`), if the project declares it. */
function declaredAs(type: Type, { checker }: ParseContext): Symbol | undefined {
  const symbol = checker.aliasSymbolOf(type) ?? checker.symbolOf(type);
  return symbol && !checker.isLibrarySymbol(symbol) ? symbol : undefined;
}

/**
 * Unions, including enums (a union of enum members to the checker). `boolean` is caught earlier.
 * An enum's or a union alias's JSDoc describes it wherever it is used, as an interface's does
 * (a property's own JSDoc, written over it, wins).
 */
export const unionParser: TypeParser = {
  construct: "unions and enums",
  supports: (type, ctx) => (ctx.checker.flags(type) & TypeFlags.Union) !== 0,
  parse: (type, ctx) => {
    const model = unionModel(ctx.checker.constituents(type), ctx);
    return declaredAs(type, ctx) ? withTypeDocumentation(type, model, ctx) : model;
  },
};
