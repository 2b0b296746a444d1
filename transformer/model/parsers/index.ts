import type { TypeParser } from "../parser";
import { anyParser } from "./any";
import { arrayParser } from "./array";
import { arrayLikeParser } from "./array-like";
import { classParser } from "./class";
import { emptyObjectParser } from "./empty-object";
import { intersectionParser } from "./intersection";
import { literalParser } from "./literal";
import { nonPrimitiveParser } from "./non-primitive";
import { notSerializableParser } from "./not-serializable";
import { nullishParser } from "./nullish";
import { objectParser } from "./object";
import { primitiveParser } from "./primitive";
import { templateLiteralParser } from "./template-literal";
import { toJsonParser } from "./to-json";
import { tupleParser } from "./tuple";
import { unionParser } from "./union";
import { unsupportedParser } from "./unsupported";

/**
 * One parser per TypeScript construct, tried in this order; the first that supports a type
 * builds its model. Order matters only where constructs overlap: `boolean` is a union to the
 * checker (primitive before union), a Date is an object (toJSON before class and object), a class
 * extending Array is an array (before class), a class with no properties is reported (before
 * the empty object type).
 */
export const parsers: readonly TypeParser[] = [
  anyParser,
  nonPrimitiveParser,
  unsupportedParser,
  primitiveParser,
  literalParser,
  nullishParser,
  templateLiteralParser,
  unionParser,
  intersectionParser,
  arrayParser,
  tupleParser,
  arrayLikeParser,
  toJsonParser,
  notSerializableParser,
  classParser,
  emptyObjectParser,
  objectParser,
];
