/**
 * What a parser is and what it may ask of the modeler, apart from the modeler itself
 * (modeler.ts): each parser imports these, and the modeler is handed the list of parsers, so
 * that no import goes round from the modeler through the parsers back to it.
 */
import type { Type, TypeChecker } from "../checker/checker";
import type { Model } from "./model";

/**
 * What a parser may ask of the modeler: the model of another type (cached, recursion-safe),
 * a definition for a named type, a type's declared name and text, and the model of a type with
 * no JSON form.
 */
export interface ParseContext {
  readonly checker: TypeChecker;
  modelOf(type: Type): Model;
  /** Makes `type` a named definition: its model becomes a `$ref` wherever it is used. */
  define(type: Type): void;
  /** The declared name of a named type (interface, class, alias), or undefined for anonymous ones. */
  nameOf(type: Type): string | undefined;
  /**
   * The model of a type with no JSON form: "<the type> <reason>". `lost`: no value of it
   * survives JSON.stringify; `uninhabited`: it has no values at all.
   */
  unsupported(type: Type, reason: string, flag?: "lost" | "uninhabited"): Model;
  typeText(type: Type): string;
}

/** One TypeScript construct: which resolved types it handles, and their model. */
export interface TypeParser {
  /** The construct, as a reader would search for it ("Date", "tuple", ...). */
  readonly construct: string;
  supports(type: Type, ctx: ParseContext): boolean;
  parse(type: Type, ctx: ParseContext): Model;
}
