import { TAG_PROPERTY } from "../../../runtime/contract";
import type { Symbol, Type } from "../../checker/checker";
import { SymbolFlags, TypeFlags } from "../../checker/flags";
import type { Model, ObjectModel, Property } from "../model";
import type { ParseContext } from "../modeler";
import { documentation } from "../jsdoc";
import { hasNoJsonValue, includesUndefined, modelWithoutUndefined } from "../optional";
import { isUninhabited } from "../uninhabited";
import { NUMERIC_KEY, templatePattern } from "./template-literal";

const PRIMITIVE =
  TypeFlags.StringLike |
  TypeFlags.NumberLike |
  TypeFlags.BooleanLike |
  TypeFlags.BigIntLike |
  TypeFlags.Null |
  TypeFlags.Undefined;

/**
 * Whether a property reaches the wire. JSON.stringify (and typemcp's projection, which
 * follows it) sends own enumerable data only: methods, function-valued properties, symbol
 * keys, `#private` fields and class accessors (which live on the prototype) never travel;
 * TypeScript-`private`/`protected` members are not part of the declared public shape.
 */
function isData(symbol: Symbol, { checker }: ParseContext): boolean {
  if (checker.symbolFlags(symbol) & (SymbolFlags.Method | SymbolFlags.Prototype)) return false;
  if (checker.symbolName(symbol) === TAG_PROPERTY || checker.isNonPublicOrStaticMember(symbol)) return false;
  // An optional method-like property `onChange?: () => void` is a function too. (Primitives,
  // alone or in a union with null and undefined as most properties are, have no call
  // signatures: no need to take null and undefined out, or to resolve apparent types.)
  const declared = checker.typeOfSymbol(symbol);
  const flags = checker.flags(declared);
  if (
    (flags & TypeFlags.Union ? checker.constituents(declared) : [declared]).every(
      (member) => checker.flags(member) & PRIMITIVE,
    )
  )
    return true;
  const type = checker.nonNullable(declared);
  return !(checker.callSignatures(type).length > 0 && checker.properties(type).length === 0);
}

/** A property whose type has no JSON value (`undefined`, `void`, `never`): it can only be left out. */
function isAbsent(symbol: Symbol, type: Type, { checker }: ParseContext): boolean {
  // `a: never` is a property no object can have (the object type has no values); `a?: never` one it leaves out.
  return hasNoJsonValue(type, checker, (checker.symbolFlags(symbol) & SymbolFlags.Optional) !== 0);
}

export function dataProperties(type: Type, ctx: ParseContext): Property[] {
  const { checker } = ctx;
  const properties: Property[] = [];
  for (const symbol of checker.properties(type)) {
    if (!isData(symbol, ctx)) continue;
    const propertyType = checker.typeOfSymbol(symbol);
    if (isAbsent(symbol, propertyType, ctx)) {
      properties.push({ name: checker.symbolName(symbol), model: { kind: "null" }, required: false, absent: true });
      continue;
    }
    const model = modelWithoutUndefined(propertyType, ctx);
    const { description, keywords, error } = documentation(symbol, model, checker);
    const property: Property = {
      name: checker.symbolName(symbol),
      model: error ? { kind: "unsupported", message: error } : model,
      required: !(checker.symbolFlags(symbol) & SymbolFlags.Optional) && !includesUndefined(propertyType, checker),
    };
    if (description) property.description = description;
    if (keywords) property.keywords = keywords;
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
  if (!ctx.nameOf(type)) return model;
  // A named type's own JSDoc describes its definition.
  const { description, keywords, error } = documentation(
    checker.aliasSymbolOf(type) ?? checker.symbolOf(type),
    model,
    checker,
  );
  if (error) return { kind: "unsupported", message: `${ctx.typeText(type)}: ${error}` };
  if (description) model.description = description;
  if (keywords) model.keywords = keywords;
  return model;
}
