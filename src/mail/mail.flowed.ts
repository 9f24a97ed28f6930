/**
 * format=flowed (RFC 3676). mailparser joins soft-broken lines without regard to quote depth, so a
 * reply written right under a quoted line that ended in a space ("> Hi ", "Hello") came out as one
 * quoted line and the customer's words went with the quote. Desk therefore hides the parameter
 * from mailparser (which then only undoes the transfer and charset encodings) and decodes the
 * text here, where a line only ever flows into the next one of the same quote depth.
 */

const FLOWED_PARAM = /(;\s*)format\s*=\s*"?flowed"?/gi;
const DELSP_YES = /;\s*delsp\s*=\s*"?yes"?/i;

export type FlowedSource = { raw: Uint8Array; flowed: boolean; delSp: boolean };

/**
 * The message with `format=flowed` removed from its Content-Type headers: the top header block
 * and those of MIME parts (after a boundary line). Bodies are never touched; most messages are
 * not flowed and are answered as they are without being copied.
 */
export function hideFlowedParameter(raw: Uint8Array): FlowedSource {
  const bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  if (bytes.indexOf("flowed") < 0 && bytes.indexOf("FLOWED") < 0 && bytes.indexOf("Flowed") < 0)
    return { raw, flowed: false, delSp: false };
  const text = bytes.toString("latin1");
  let flowed = false;
  let delSp = false;
  // A header block: the start of the message, or the lines after a boundary, up to a blank line.
  const rewritten = text.replace(
    /(^|\n--[^\r\n]*\r?\n)([\s\S]*?)(\r?\n\r?\n)/g,
    (whole, lead: string, head: string, end: string) => {
      const contentType = /^content-type:[^\n]*(?:\r?\n[ \t][^\n]*)*/im.exec(head);
      if (!contentType || !/text\/plain/i.test(contentType[0]) || !/format\s*=\s*"?flowed/i.test(contentType[0]))
        return whole;
      flowed = true;
      if (DELSP_YES.test(contentType[0])) delSp = true;
      const header = contentType[0].replace(FLOWED_PARAM, "$1x-format=flowed");
      return `${lead}${head.slice(0, contentType.index)}${header}${head.slice(contentType.index + contentType[0].length)}${end}`;
    },
  );
  if (!flowed) return { raw, flowed: false, delSp: false };
  return { raw: new Uint8Array(Buffer.from(rewritten, "latin1")), flowed, delSp };
}

/** Decodes flowed text: soft breaks join lines of one quote depth; space-stuffing is undone. */
export function decodeFlowed(text: string, delSp: boolean): string {
  const out: string[] = [];
  let paragraph: string | null = null;
  let paragraphDepth = -1;
  for (const rawLine of text.split(/\r?\n/)) {
    const depth = /^>*/.exec(rawLine)![0].length;
    let line = rawLine.slice(depth);
    if (line.startsWith(" ")) line = line.slice(1);
    if (paragraph !== null && depth !== paragraphDepth) {
      // A flowed line followed by another depth is an improperly flowed line: it ends there.
      out.push(quotePrefix(paragraphDepth) + paragraph.trimEnd());
      paragraph = null;
    }
    const soft = line.endsWith(" ") && line !== "-- ";
    const piece = soft && delSp ? line.slice(0, -1) : line;
    paragraph = paragraph === null ? piece : paragraph + piece;
    paragraphDepth = depth;
    if (!soft) {
      out.push(quotePrefix(depth) + paragraph);
      paragraph = null;
    }
  }
  if (paragraph !== null) out.push(quotePrefix(paragraphDepth) + paragraph.trimEnd());
  return out.join("\n");
}

const quotePrefix = (depth: number): string => (depth > 0 ? `${">".repeat(depth)} ` : "");
