import { describe, expect, test } from "bun:test";
import { parse } from "csv-parse/sync";
import { CSV_BOM, csvCell, csvLine, csvStream, type CsvPage } from "./csv";

async function readRest(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value);
  return text;
}

describe("csv", () => {
  test("RFC 4180 quoting round-trips commas, quotes, newlines and non-ASCII through a real parser", () => {
    const cells = ["a,b", 'say "hi"', "line1\nline2", "crlf\r\nend", "Zoë 東京 🙂", "", "plain"];
    const text = csvLine(cells) + csvLine(["x", null, undefined, 3, true, ["t1", "t2"], { k: "v" }]);
    expect(text.endsWith("\r\n")).toBe(true);
    expect(parse(text)).toEqual([cells, ["x", "", "", "3", "true", "t1; t2", '{"k":"v"}']]);
  });

  test("cells a spreadsheet would run as a formula are prefixed with '", () => {
    for (const risky of ["=1+1", "+1", "-2", "@SUM(A1)", "\t=1", "\r=1", '=HYPERLINK("http://x.test","go")'])
      expect(parse(csvLine([risky]))[0][0]).toBe(`'${risky}`);
    expect(csvCell("a=1")).toBe("a=1");
    expect(csvCell(-5)).toBe("'-5");
  });

  test("the stream starts with a BOM and the header, then each page as the reader pulls it", async () => {
    const pulled: (number | null)[] = [];
    const stream = csvStream<number>(["n"], (cursor) => {
      pulled.push(cursor);
      const start = cursor ?? 0;
      return { rows: [[start], [start + 1]], next: start + 2 < 6 ? start + 2 : null } satisfies CsvPage<number>;
    });
    const reader = stream.getReader();
    const first = new TextDecoder("utf-8", { ignoreBOM: true }).decode((await reader.read()).value);
    expect(first).toBe(`${CSV_BOM}n\r\n0\r\n1\r\n`);
    // One page is buffered ahead at most: the reader, not the writer, sets the pace.
    await Bun.sleep(5);
    expect(pulled.length).toBeLessThanOrEqual(2);
    const rest = await readRest(reader);
    expect(rest).toBe("2\r\n3\r\n4\r\n5\r\n");
    expect(pulled).toEqual([null, 2, 4]);
  });

  test("cancelling stops the reads", async () => {
    let reads = 0;
    const stream = csvStream<number>(["n"], (cursor) => {
      reads++;
      return { rows: [[cursor ?? 0]], next: (cursor ?? 0) + 1 };
    });
    const reader = stream.getReader();
    await reader.read();
    await reader.cancel();
    const after = reads;
    await Bun.sleep(5);
    expect(reads).toBe(after);
    expect(reads).toBeLessThanOrEqual(2);
  });

  test("pages read later (on the read pool) stream in order; one in flight at a cancel is dropped and no more are read", async () => {
    const pulled: (number | null)[] = [];
    const stream = csvStream<number>(["n"], async (cursor) => {
      pulled.push(cursor);
      await Bun.sleep(2);
      const start = cursor ?? 0;
      return { rows: [[start]], next: start + 1 < 3 ? start + 1 : null };
    });
    // readRest decodes as UTF-8, which drops the BOM.
    expect(await readRest(stream.getReader())).toBe("n\r\n0\r\n1\r\n2\r\n");
    expect(pulled).toEqual([null, 1, 2]);

    let release = () => {};
    let reads = 0;
    const slow = csvStream<number>(["n"], (cursor) => {
      reads++;
      if (cursor === null) return { rows: [[0]], next: 1 };
      return new Promise<CsvPage<number>>((resolve) => {
        release = () => resolve({ rows: [["late"]], next: 2 });
      });
    });
    const reader = slow.getReader();
    await reader.read();
    const pending = reader.read();
    await Bun.sleep(5);
    await reader.cancel();
    release();
    expect((await pending).done).toBe(true);
    await Bun.sleep(5);
    expect(reads).toBe(2);
  });
});
