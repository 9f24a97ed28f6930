import {
  FORWARD_MARKER,
  attributionAt,
  headerBlockAt,
  isClientFooter,
  isOriginalMessageSeparator,
  isRule,
  splitGlued,
} from "./mail.quote.headers";

/**
 * Trims quoted history from a plain-text reply, keeping every line the customer wrote.
 *
 * The text is read as blocks: the customer's lines, quoted (`>`) blocks with the attribution line
 * that introduces them, and unmarked history (a header block, an "Original Message" separator or
 * an attribution followed by unquoted text), which runs to the end. Then:
 * - unmarked history is cut from its first line;
 * - a quoted block with nothing of the customer's after it (blank lines, a `-- ` signature or a
 *   list footer at most) is trailing history and is cut with what follows;
 * - quoted blocks followed by the customer's words are cut too when the reply is written below a
 *   single quote (bottom-posting), but kept as context when the customer answered between quotes
 *   and the history trails after them (inline replies);
 * - when nothing of the customer's would be left, nothing is cut.
 */

export type TrimmedText = { text: string; trimmed: boolean };

const QUOTED = /^\s*>/;
const PIPE_QUOTED = /^\s*\|/;
/** Where a signature or a mailing-list footer starts after the quote. */
const SIGNATURE_START = /^(?:--\s*|__+\s*|-{3,}\s*)$/;

/** RFC 3676's signature separator, with the space some clients and list servers strip. */
const SIG_DASH = /^-- ?$/;
/** Netiquette's four-line signature (RFC 1855 3.1.1): anything longer is left to the reader. */
const SIGNATURE_LINES = 4;

type Block = { start: number; quoteStart: number; end: number };

export function trimQuotedText(input: string): TrimmedText {
  const lines = input.split(/\r?\n/).flatMap((line) => splitGlued(line) ?? [line]);
  const { blocks, historyAt } = readBlocks(lines);
  const keep = cutQuotes(lines, blocks, historyAt);
  dropClientChrome(lines, keep);
  const kept = collapseCuts(lines, keep);
  const text = kept
    .join("\n")
    .replace(/\s+$/, "")
    .replace(/^\s*\n/, "");
  const customerLeft = kept.some((line) => line.trim() && !QUOTED.test(line));
  if (!customerLeft || !keep.includes(false)) return { text: input, trimmed: false };
  return { text, trimmed: true };
}

/** The quoted blocks (with their attribution lines), and where the unmarked history starts (the length when none). */
function readBlocks(lines: readonly string[]): { blocks: Block[]; historyAt: number } {
  let historyAt = lines.length;
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (FORWARD_MARKER.test(line)) break;
    if (isOriginalMessageSeparator(line) || headerBlockAt(lines, i)) {
      historyAt = isRule(lines[i - 1] ?? "") ? i - 1 : i;
      break;
    }
    if (isRule(line) && headerBlockAt(lines, nextFilled(lines, i + 1))) {
      historyAt = i;
      break;
    }
    if (QUOTED.test(line)) {
      const end = quoteEnd(lines, i, QUOTED);
      blocks.push({ start: i, quoteStart: i, end });
      i = end;
      continue;
    }
    const { span, needsQuote } = attributionAt(lines, i);
    if (span > 0) {
      const next = nextFilled(lines, i + span);
      if (next >= lines.length) {
        historyAt = i;
        break;
      }
      const marker = QUOTED.test(lines[next]!) ? QUOTED : PIPE_QUOTED.test(lines[next]!) ? PIPE_QUOTED : null;
      if (marker === null && needsQuote) {
        i++;
        continue;
      }
      if (marker === null) {
        // An attribution followed by unquoted text: the quoted message is not marked (Outlook
        // mobile, Gmail's "history without > marks"), so everything below it is history.
        historyAt = i;
        break;
      }
      const end = quoteEnd(lines, next, marker);
      blocks.push({ start: i, quoteStart: next, end });
      i = end;
      continue;
    }
    i++;
  }
  return { blocks, historyAt };
}

/** Which lines stay: the history goes, and the quoted blocks the rules at the top of this file cut. */
function cutQuotes(lines: readonly string[], blocks: readonly Block[], historyAt: number): boolean[] {
  const blank = (i: number) => !lines[i]!.trim();
  const keep = lines.map((_, n) => n < historyAt);
  const inHistory = (n: number) => n >= historyAt;
  // A block is trailing when after it, up to the history, come only blank lines or a signature.
  // An attribution or header starts the history: a quoted block right above one is a passage the
  // customer quoted in their reply (Apple Mail and Thunderbird mark both alike), so it stays.
  const attributed = (b: Block): boolean => b.start !== b.quoteStart;
  const blockAt = new Map(blocks.map((b) => [b.start, b]));
  const trailing = (block: Block): boolean => {
    for (let n = block.end; n < historyAt && !inHistory(n); n++) {
      if (blank(n)) continue;
      return (
        SIGNATURE_START.test(lines[n]!.trimEnd()) ||
        (blockAt.has(n) && !attributed(blockAt.get(n)!) && trailing(blockAt.get(n)!))
      );
    }
    return historyAt === lines.length || attributed(block);
  };
  const last = blocks.at(-1);
  const hasTrailing = last !== undefined && trailing(last);
  for (const block of blocks) {
    const isTrailing = trailing(block);
    if (isTrailing) {
      for (let n = block.start; n < historyAt; n++) keep[n] = false;
      break;
    }
    // Written below one quote: the quote goes. Answered between quotes: they stay as context.
    // With history below, the reply is not written below this quote: it is the customer's passage.
    if (!hasTrailing && historyAt === lines.length) for (let n = block.start; n < block.end; n++) keep[n] = false;
  }
  return keep;
}

/** Where a block was taken out, the blank lines around it collapse into one. */
function collapseCuts(lines: readonly string[], keep: readonly boolean[]): string[] {
  const kept: string[] = [];
  let removedSince = false;
  for (let n = 0; n < lines.length; n++) {
    if (!keep[n]) {
      removedSince = true;
      continue;
    }
    if (removedSince && !lines[n]!.trim() && kept.length > 0 && !kept.at(-1)!.trim()) continue;
    kept.push(lines[n]!);
    removedSince = false;
  }
  return kept;
}

/**
 * What a client writes between the reply and trailing history goes with the history: the app's
 * advert line (see isClientFooter), and a signature under the sig-dash "-- " (RFC 3676 4.3) that
 * the client inserts above the quote (Thunderbird, Apple Mail, K-9 with "reply above quote"), just
 * as one below a quote already goes. Only a short signature (at most four lines of at most 80
 * characters) right above the cut, never quoted lines.
 */
function dropClientChrome(lines: readonly string[], keep: boolean[]): void {
  let cut = keep.length;
  while (cut > 0 && (!keep[cut - 1] || !lines[cut - 1]!.trim())) cut--;
  if (cut === keep.length || !keep.slice(cut).includes(false)) return;
  let n = cut - 1;
  for (; n >= 0 && keep[n]; n--) {
    if (!lines[n]!.trim()) continue;
    if (!isClientFooter(lines[n]!)) break;
    keep[n] = false;
  }
  let signed = 0;
  for (let m = n; m >= 0 && keep[m] && !QUOTED.test(lines[m]!); m--) {
    if (SIG_DASH.test(lines[m]!)) {
      if (signed > 0) for (let k = m; k <= n; k++) keep[k] = false;
      return;
    }
    if (!lines[m]!.trim()) continue;
    if (++signed > SIGNATURE_LINES || lines[m]!.length > 80) return;
  }
}

function nextFilled(lines: readonly string[], from: number): number {
  let n = from;
  while (n < lines.length && !lines[n]!.trim()) n++;
  return n;
}

/**
 * The line after a quoted block; blank lines inside it belong to it, trailing ones do not. A
 * client that re-wraps a long quoted line leaves its tail unmarked ("> … ornare diam,\neget …"):
 * a line right under a long unfinished quoted line that goes on in lower case is that tail. An
 * inline answer starts its own sentence, so it is not taken for one.
 */
function quoteEnd(lines: readonly string[], from: number, marker: RegExp): number {
  let end = from;
  let n = from;
  while (n < lines.length) {
    const line = lines[n]!;
    if (line.trim() && !marker.test(line) && !isWrappedTail(lines[n - 1]!, line, marker)) break;
    if (line.trim()) end = n + 1;
    n++;
  }
  return end;
}

function isWrappedTail(previous: string, line: string, marker: RegExp): boolean {
  if (!marker.test(previous)) return false;
  const quoted = previous.replace(/^[\s>|]+/, "");
  if (quoted.length >= 40 && !/[.!?:]\s*$/.test(quoted) && /^\p{Ll}/u.test(line)) return true;
  return isWrappedLink(quoted, line.trim());
}

/**
 * Clients that wrap at 72-78 columns (Outlook, Gmail's plain part, talon's own fixtures) break a
 * long address where they can and leave its rest unmarked: a quoted line ending in an open
 * address, then one word of address characters with a path, query or file ending.
 */
function isWrappedLink(quoted: string, line: string): boolean {
  if (!/(?:^|\s|<)(?:https?:\/\/|www\.)[^\s<>()]*$/i.test(quoted)) return false;
  return /^[^\s<>"]{4,}>?$/.test(line) && /[/?=&%#_]|\.[a-z]{2,5}>?$/i.test(line);
}
