import type { Formatters } from "../formatter";
import { anyFormatter, unsupportedFormatter } from "./any";
import { arrayFormatter } from "./array";
import { literalFormatter } from "./literal";
import { objectFormatter } from "./object";
import { booleanFormatter, integerFormatter, nullFormatter, numberFormatter, stringFormatter } from "./primitive";
import { refFormatter } from "./ref";
import { tupleFormatter } from "./tuple";
import { unionFormatter } from "./union";

/** One formatter per model kind; the record type makes a missing kind a compile error. */
export const formatters: Formatters = {
  any: anyFormatter,
  unsupported: unsupportedFormatter,
  string: stringFormatter,
  number: numberFormatter,
  integer: integerFormatter,
  boolean: booleanFormatter,
  null: nullFormatter,
  literal: literalFormatter,
  array: arrayFormatter,
  tuple: tupleFormatter,
  object: objectFormatter,
  union: unionFormatter,
  ref: refFormatter,
};
