import { TAG_PROPERTY } from "../../../contract/contract";
import type { Symbol, Type } from "../../checker/checker";
import { SymbolFlags, TypeFlags } from "../../checker/flags";
import type { Model, ObjectModel, Property } from "../model";
import type { ParseContext } from "../parser";
import { documentation, withTypeDocumentation } from "../jsdoc";
import {
  hasNoJsonValue,
  holdsOnlyFunctions,
  includesUndefined,
  modelWithoutUndefined,
  requiredFunctionModel,
} from "../optional";
import { isUninhabited } from "../uninhabited";
import { NUMERIC_KEY, templatePattern } from "./template-literal";

/**
 * Whether a property reaches the wire. JSON.stringify (and typemcp's projection, which
 * follows it) sends own enumerable data only: methods, symbol keys, `#private` fields and
 * class accessors (which live on the prototype) never travel; TypeScript-`private`/`protected`
 * members are not part of the declared public shape. A property whose type is a function is
 * data the type promises: see holdsOnlyFunctions.
 */
function isData(symbol: Symbol, { checker }: ParseContext): boolean {
  if (checker.symbolFlags(symbol) & (SymbolFlags.Method | SymbolFlags.Prototype)) return false;
  return checker.symbolName(symbol) !== TAG_PROPERTY && !checker.isNonPublicOrStaticMember(symbol);
}

export function dataProperties(type: Type, ctx: ParseContext): Property[] {
  const { checker } = ctx;
  const properties: Property[] = [];
  for (const symbol of checker.properties(type)) {
    if (!isData(symbol, ctx)) continue;
    const propertyType = checker.typeOfSymbol(symbol);
    const optional = (checker.symbolFlags(symbol) & SymbolFlags.Optional) !== 0;
    const required = !optional && !includesUndefined(propertyType, checker);
    const functions = holdsOnlyFunctions(propertyType, ctx);
    // JSON never carries it: its type has no JSON value (`a: never` is a property no object can
    // have, so the object type has none; `a?: never` one it leaves out), or it may be absent and
    // holds only functions (`onChange?: () => void`), which JSON.stringify drops.
    if (hasNoJsonValue(propertyType, checker, optional) || (functions && !required)) {
      properties.push({ name: checker.symbolName(symbol), model: { kind: "null" }, required: false, absent: true });
      continue;
    }
    const model = functions ? requiredFunctionModel(propertyType, ctx) : modelWithoutUndefined(propertyType, ctx);
    const { description, keywords, tagProblems } = documentation(symbol, model, checker);
    const property: Property = { name: checker.symbolName(symbol), model, required };
    if (description) property.description = description;
    if (keywords) property.keywords = keywords;
    if (tagProblems) property.tagProblems = tagProblems;
    properties.push(property);
  }
  return properties;
}

/**
 * The object model shared by interfaces, object literal types, mapped types, intersections
 * and classes: the checker's resolved property list and index signatures. Named types
 * (interfaces, classes, aliases) become definitions, so each is described once.
 */
export function objectModel(type: Type, ctx: ParseContext): Model {
  const { checker } = ctx;
  if (ctx.nameOf(type)) ctx.define(type);
  const model: ObjectModel = { kind: "object", properties: dataProperties(type, ctx) };
  const empty = model.properties.find((p) => p.required && isUninhabited(p.model));
  if (empty)
    return ctx.unsupported(type, `has no values (its property ${JSON.stringify(empty.name)} has none)`, "uninhabited");
  const patterns: { pattern: string; model: Model }[] = [];
  for (const index of checker.indexInfos(type)) {
    const value = modelWithoutUndefined(index.type, ctx);
    // `Record<string, never>`: the signature admits no key.
    if (isUninhabited(value)) continue;
    const keyFlags = checker.flags(index.keyType);
    if (keyFlags & TypeFlags.String) {
      model.additional = value;
    } else if (keyFlags & TypeFlags.Number) {
      patterns.push({ pattern: NUMERIC_KEY, model: value });
    } else if (keyFlags & TypeFlags.TemplateLiteral) {
      const pattern = templatePattern(index.keyType, checker);
      if (pattern === undefined)
        return ctx.unsupported(
          type,
          `has an index signature whose keys (${ctx.typeText(index.keyType)}) have no exact pattern`,
        );
      patterns.push({ pattern, model: value });
    } // symbol keys: JSON has none
  }
  // A string index signature admits every key: the others add nothing JSON can tell apart.
  if (patterns.length && !model.additional) {
    model.patterns = patterns;
    if (patterns.length === 1 && patterns[0].pattern === NUMERIC_KEY) model.numberKeys = true;
  }
  // A named type's own JSDoc describes its definition.
  return ctx.nameOf(type) ? withTypeDocumentation(type, model, ctx) : model;
}
