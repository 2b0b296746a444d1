/**
 * `record[key] = value`, as an own property for every key: assigning to `"__proto__"` would set
 * the record's prototype instead. A `"__proto__"` key is data wherever typemcp writes keys it did
 * not choose: a property of a type (`{ "__proto__": string }` is a valid TypeScript type), a key
 * of the arguments (`JSON.parse` makes it an own property), of a result's wire copy. One
 * function for the transformer and the runtime.
 */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  if (key === "__proto__")
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}
