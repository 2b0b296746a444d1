import * as ts from "typescript";
import { TAG_PROPERTY } from "../../../runtime/contract";
import type { Model, ObjectModel, Property } from "../model";
import type { ParseContext } from "../modeler";
import { includesUndefined, modelWithoutUndefined } from "../optional";

const NOT_DATA_MODIFIERS = ts.ModifierFlags.Private | ts.ModifierFlags.Protected | ts.ModifierFlags.Static;

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
  // An optional method-like property `onChange?: () => void` is a function too.
  const type = ctx.checker.getNonNullableType(ctx.checker.getTypeOfSymbol(symbol));
  return !(type.getCallSignatures().length > 0 && type.getProperties().length === 0);
}

export function dataProperties(type: ts.Type, ctx: ParseContext): Property[] {
  const properties: Property[] = [];
  for (const symbol of ctx.checker.getPropertiesOfType(type)) {
    if (!isData(symbol, ctx)) continue;
    const propertyType = ctx.checker.getTypeOfSymbol(symbol);
    const property: Property = {
      name: symbol.name,
      model: modelWithoutUndefined(propertyType, ctx),
      required: !(symbol.flags & ts.SymbolFlags.Optional) && !includesUndefined(propertyType),
    };
    const description = ctx.describe(symbol);
    if (description) property.description = description;
    properties.push(property);
  }
  return properties;
}

/**
 * The object model shared by interfaces, object literal types, mapped types, intersections
 * and classes: the checker's resolved property list and index signatures. Named types
 * (interfaces, classes, aliases) become definitions, so each is described once.
 */
export function objectModel(type: ts.Type, ctx: ParseContext): ObjectModel {
  if (ctx.nameOf(type)) ctx.define(type);
  const model: ObjectModel = { kind: "object", properties: dataProperties(type, ctx) };
  const stringIndex = ctx.checker.getIndexTypeOfType(type, ts.IndexKind.String);
  const numberIndex = ctx.checker.getIndexTypeOfType(type, ts.IndexKind.Number);
  if (stringIndex) {
    model.additional = modelWithoutUndefined(stringIndex, ctx);
    model.keys = "string";
  } else if (numberIndex) {
    model.additional = modelWithoutUndefined(numberIndex, ctx);
    model.keys = "number";
  }
  if (ctx.nameOf(type)) {
    const description = ctx.describe(type.aliasSymbol ?? type.getSymbol());
    if (description) (model as Model).description = description;
  }
  return model;
}
