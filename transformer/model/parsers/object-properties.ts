import ts from "typescript";
import { TAG_PROPERTY } from "../../../runtime/contract";
import type { Model, ObjectModel, Property } from "../model";
import type { ParseContext } from "../modeler";
import { documentation } from "../jsdoc";
import { includesUndefined, modelWithoutUndefined } from "../optional";
import { NUMERIC_KEY, templatePattern } from "./template-literal";

const NOT_DATA_MODIFIERS = ts.ModifierFlags.Private | ts.ModifierFlags.Protected | ts.ModifierFlags.Static;
const PRIMITIVE = ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike | ts.TypeFlags.BigIntLike | ts.TypeFlags.Null | ts.TypeFlags.Undefined;

/**
 * Whether a property reaches the wire. JSON.stringify (and typemcp's projection, which
 * follows it) sends own enumerable data only: methods, function-valued properties, symbol
 * keys, `#private` fields and class accessors (which live on the prototype) never travel;
 * TypeScript-`private`/`protected` members are not part of the declared public shape.
 */
function isData(symbol: ts.Symbol, ctx: ParseContext): boolean {
  if (symbol.flags & (ts.SymbolFlags.Method | ts.SymbolFlags.Prototype)) return false;
  if (symbol.name === TAG_PROPERTY || symbol.escapedName.toString().startsWith("__@")) return false;
  for (const declaration of symbol.getDeclarations() ?? []) {
    const name = ts.getNameOfDeclaration(declaration);
    if (name && ts.isPrivateIdentifier(name)) return false;
    if (ts.getCombinedModifierFlags(declaration) & NOT_DATA_MODIFIERS) return false;
    if (symbol.flags & ts.SymbolFlags.Accessor && ts.isClassLike(declaration.parent)) return false;
  }
  // An optional method-like property `onChange?: () => void` is a function too. (Primitives,
  // alone or in a union with null and undefined as most properties are, have no call
  // signatures: no need to take null and undefined out, or to resolve apparent types.)
  const declared = ctx.checker.getTypeOfSymbol(symbol);
  if ((declared.isUnion() ? declared.types : [declared]).every((member) => member.flags & PRIMITIVE)) return true;
  const type = ctx.checker.getNonNullableType(declared);
  return !(type.getCallSignatures().length > 0 && type.getProperties().length === 0);
}

export function dataProperties(type: ts.Type, ctx: ParseContext): Property[] {
  const properties: Property[] = [];
  for (const symbol of ctx.checker.getPropertiesOfType(type)) {
    if (!isData(symbol, ctx)) continue;
    const propertyType = ctx.checker.getTypeOfSymbol(symbol);
    const model = modelWithoutUndefined(propertyType, ctx);
    const { description, keywords, error } = documentation(symbol, model, ctx.checker);
    const property: Property = {
      name: symbol.name,
      model: error ? { kind: "unsupported", message: error } : model,
      required: !(symbol.flags & ts.SymbolFlags.Optional) && !includesUndefined(propertyType),
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
export function objectModel(type: ts.Type, ctx: ParseContext): Model {
  if (ctx.nameOf(type)) ctx.define(type);
  const model: ObjectModel = { kind: "object", properties: dataProperties(type, ctx) };
  const patterns: { pattern: string; model: Model }[] = [];
  for (const index of ctx.checker.getIndexInfosOfType(type)) {
    const value = modelWithoutUndefined(index.type, ctx);
    if (index.keyType.flags & ts.TypeFlags.String) {
      model.additional = value;
    } else if (index.keyType.flags & ts.TypeFlags.Number) {
      patterns.push({ pattern: NUMERIC_KEY, model: value });
    } else if (index.keyType.flags & ts.TypeFlags.TemplateLiteral) {
      const pattern = templatePattern(index.keyType);
      if (pattern === undefined) return ctx.unsupported(type, `has an index signature whose keys (${ctx.typeText(index.keyType)}) have no exact pattern`);
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
  const { description, keywords, error } = documentation(type.aliasSymbol ?? type.getSymbol(), model, ctx.checker);
  if (error) return { kind: "unsupported", message: `${ctx.typeText(type)}: ${error}` };
  if (description) model.description = description;
  if (keywords) model.keywords = keywords;
  return model;
}
