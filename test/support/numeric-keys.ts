/**
 * Texts for the number keys' pattern (NUMERIC_KEY, transformer/model/parsers/template-literal.ts):
 * the pattern builds wrote before it lost its lookaheads, which contracts built then still carry,
 * and the texts the two are compared on, in V8 and in the linear engine.
 */

/** The number keys' pattern as earlier builds wrote it, with three lookaheads. */
export const PREVIOUS_NUMERIC_KEY =
  "^(?!-0$)(?:-?(?:0|[1-9][0-9]{0,14}|(?=[0-9]{16,21}$)[1-9][0-9]{0,14}0+|(?:[1-8][0-9]{15}|900[0-6][0-9]{12}|90070[0-9]{11}|90071[0-8][0-9]{10}|900719[0-8][0-9]{9}|9007199[0-1][0-9]{8}|90071992[0-4][0-9]{7}|900719925[0-3][0-9]{6}|9007199254[0-6][0-9]{5}|90071992547[0-3][0-9]{4}|9007199254740[0-8][0-9]{2}|90071992547409[0-8][0-9]|900719925474099[0-1]|9007199254740992)|(?=[0-9.]{3,16}$)[1-9][0-9]*\\.[0-9]*[1-9]|0\\.0{0,5}[1-9](?:[0-9]{0,13}[1-9])?|[1-9](?:\\.[0-9]{0,13}[1-9])?e(?:\\+(?:2[1-9]|[3-9][0-9]|[12][0-9]{2}|30[0-7])|-(?:[7-9]|[1-9][0-9]|[12][0-9]{2}|30[0-9]))|1(?:\\.(?:[1-6]|[0-6][0-9]{0,12}[1-9]|7|7[1-8]|7[0-8][0-9]{0,11}[1-9]|79|79[1-6]|79[0-6][0-9]{0,10}[1-9]|797|797[1-5]|797[0-5][0-9]{0,9}[1-9]|7976|7976[1-8]|7976[0-8][0-9]{0,8}[1-9]|79769|79769[1-2]|79769[0-2][0-9]{0,7}[1-9]|797693|7976930[0-9]{0,6}[1-9]|7976931|7976931[1-2]|7976931[0-2][0-9]{0,5}[1-9]|79769313|79769313[1-3]|79769313[0-3][0-9]{0,4}[1-9]|797693134|797693134[1-7]|797693134[0-7][0-9]{0,3}[1-9]|7976931348|7976931348[1-5]|7976931348[0-5][0-9]{0,2}[1-9]|79769313486|797693134861|79769313486[0-1][0-9]{0,1}[1-9]|797693134862|797693134862[1-2]|797693134862[0-2][1-9]|7976931348623|79769313486231))?e\\+308|[1-9](?:\\.[0-9]{0,12}[1-9])?e-310|[1-9](?:\\.[0-9]{0,11}[1-9])?e-311|[1-9](?:\\.[0-9]{0,10}[1-9])?e-312|[1-9](?:\\.[0-9]{0,9}[1-9])?e-313|[1-9](?:\\.[0-9]{0,8}[1-9])?e-314|[1-9](?:\\.[0-9]{0,7}[1-9])?e-315|[1-9](?:\\.[0-9]{0,6}[1-9])?e-316|[1-9](?:\\.[0-9]{0,5}[1-9])?e-317|[1-9](?:\\.[0-9]{0,4}[1-9])?e-318|[1-9](?:\\.[0-9]{0,3}[1-9])?e-319|[1-9](?:\\.[0-9]{0,2}[1-9])?e-320|[1-9](?:\\.[0-9]{0,1}[1-9])?e-321|[1-9](?:\\.[1-9])?e-322|[1-9]e-323|5e-324)|NaN|-?Infinity)$";

/**
 * Every string of up to 5 characters over the characters that tell the pattern's parts apart;
 * keys of every shape (sign, 0 to 22 digits before a point, 0 to 18 after, with exponents), with
 * every digit count the lengths are counted by; keys JavaScript writes for random numbers (fixed
 * seed) with each character left out, doubled or replaced; and the corners by name.
 */
export function numericKeyTexts(): string[] {
  const texts = new Set<string>([
    "",
    "-0",
    "0",
    "-0.0",
    "00",
    "01",
    "0.",
    ".5",
    "5.",
    "-.5",
    "+1",
    "1e21",
    "1e+21",
    "1e+5",
    "1e5",
    "1e-7",
    "1e-6",
    "0x10",
    "0b1",
    "0o7",
    " 1",
    "1 ",
    "\t1",
    "1\n",
    "\u00a01",
    "Infinity",
    "-Infinity",
    "+Infinity",
    "Infinity ",
    "NaN",
    "-NaN",
    "nan",
    "infinity",
    "1.50",
    "-0.5",
    "0.0000001",
    "0.000001",
    "5e-324",
    "3e-324",
    "1e-323",
    "1.79769313486231e+308",
    "1.79769313486232e+308",
    "1.8e+308",
    "9007199254740992",
    "9007199254740993",
    "100000000000000000000",
    "1000000000000000000000",
    "123456789012345678901",
    "１",
    "-",
    "e",
    ".",
  ]);
  const alphabet = ["0", "1", "5", "9", ".", "e", "+", "-", " ", "x"];
  let layer = [""];
  for (let length = 1; length <= 5; length++) {
    layer = layer.flatMap((text) => alphabet.map((c) => text + c));
    for (const text of layer) texts.add(text);
  }
  const run = (length: number, first: string, fill: string, last: string) =>
    length === 0 ? "" : length === 1 ? first : first + fill.repeat(length - 2) + last;
  const digits = [
    ["1", "0", "0"],
    ["9", "5", "7"],
    ["0", "0", "1"],
    ["1", "2", "0"],
  ];
  for (const sign of ["", "-"])
    for (let before = 0; before <= 22; before++)
      for (let after = 0; after <= 18; after++)
        for (const [first, fill, last] of digits)
          for (const exponent of ["", "e+21", "e21", "e-7", "e+308", "e-310", "e-323"]) {
            const integer = run(before, first, fill, last);
            texts.add(sign + integer + exponent);
            texts.add(`${sign}${integer}.${run(after, last, fill, first)}${exponent}`);
          }
  let seed = 11;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 1_500; i++) {
    const value = Number(`${(random() * 10).toFixed(Math.floor(random() * 17))}e${Math.floor(random() * 660) - 330}`);
    for (const key of [String(value), String(-value), String(Math.floor(random() * 2 ** 60) / 10 ** (i % 9))])
      for (let at = 0; at <= key.length; at++) {
        texts.add(key.slice(0, at) + key.slice(at + 1));
        texts.add(key.slice(0, at) + (key[at] ?? "") + key.slice(at));
        for (const c of ["0", "9", "."]) texts.add(key.slice(0, at) + c + key.slice(at + 1));
      }
  }
  return [...texts];
}
