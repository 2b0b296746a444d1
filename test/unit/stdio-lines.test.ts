/**
 * How mcp.run's stdio reads stdin (runtime/stdio.ts): whole lines within the limit handed on,
 * longer ones skipped as they stream with their size and first bytes, and the id of a message
 * read from its first bytes.
 */
import { lineFramer, topLevelId } from "../../runtime/stdio";

function frame(maxBytes: number, chunks: string[]): { lines: string[]; oversized: [number, string][] } {
  const lines: string[] = [];
  const oversized: [number, string][] = [];
  const feed = lineFramer(
    maxBytes,
    (line) => lines.push(line.toString()),
    (bytes, prefix) => oversized.push([bytes, prefix.toString()]),
  );
  for (const chunk of chunks) feed(Buffer.from(chunk));
  return { lines, oversized };
}

describe("lineFramer", () => {
  test("lines in one chunk, across chunks, and a line still open are handed on whole, with their newline", () => {
    expect(frame(100, ["a\nbb\ncc", "c\n", "d", "d", "\neee"])).toEqual({
      lines: ["a\n", "bb\n", "ccc\n", "dd\n"],
      oversized: [],
    });
  });

  test("a line of exactly the limit passes; one byte more is skipped, and the lines around it are not", () => {
    expect(frame(5, ["12345\n123456\nok\n"])).toEqual({ lines: ["12345\n", "ok\n"], oversized: [[6, "123456"]] });
  });

  test("a line over the limit across many chunks is counted whole, its first 64 KB kept, and the next line served", () => {
    const chunk = "x".repeat(40_000);
    const { lines, oversized } = frame(50_000, ['{"id":7,', chunk, chunk, chunk, "}\n", '{"id":8}\n']);
    expect(lines).toEqual(['{"id":8}\n']);
    expect(oversized.map(([bytes, prefix]) => [bytes, prefix.length, prefix.slice(0, 8)])).toEqual([
      [8 + 3 * 40_000 + 1, 64 * 1024, '{"id":7,'],
    ]);
  });
});

describe("topLevelId", () => {
  test.each([
    ['{"jsonrpc":"2.0","id":5,"method":"tools/call"', 5],
    ['{"jsonrpc":"2.0","id":"abc\\"d","method":"x"}', 'abc"d'],
    ['{ "method" : "tools/call" , "params" : {"id": 1, "a": [ {"id": 2} ], "s": "}\\"{"} , "id" : -2.5e1 }', -25],
    ['{"params":{"arguments":{"text":"xxxxxxxx', null],
    ['{"jsonrpc":"2.0","method":"notifications/x"}', null],
    ['{"id":null,"method":"x"}', null],
    ['{"id":{"a":1}}', null],
    ["[1,2,3]", null],
    ["not json", null],
    ['{"id":12', null],
    ['{"id":12}', 12],
  ])("%s → %p", (text, id) => {
    expect(topLevelId(Buffer.from(text))).toBe(id);
  });
});
