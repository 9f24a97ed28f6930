/**
 * Quote trimming cost per 20 KB inbound reply, one message shape per client family (it runs on
 * every inbound message). Prints wall time and CPU time per message: on a shared machine the CPU
 * time is the steadier figure. Run: bun bench/quote-trim-clients.ts. Aim: under 1 ms per message.
 */
import { trimQuoted } from "../src/mail/mail.quote";

const SIZE = 20 * 1024;
const paragraph =
  "Thanks for getting back to me so quickly. The printer on the third floor still shows the same error after the restart you suggested, and the queue keeps growing.";
const reply = `Hi,\n\n${Array.from({ length: 4 }, () => paragraph).join("\n\n")}\n\nBest regards,\nCarol`;
const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const divs = (text: string) =>
  text
    .split("\n")
    .map((l) => `<div>${l ? escapeHtml(l) : "<br>"}</div>`)
    .join("");

/** A thread of `>`-quoted levels with their attributions, grown to fill the message. */
function quotedThread(room: number): string {
  let out = "";
  for (let level = 1; out.length < room; level++) {
    out += `${">".repeat(level - 1)}${level > 1 ? " " : ""}On Mon, Nov ${level}, 2026 at 10:0${level % 10} AM, Support <support@acme.test> wrote:\n`;
    out += Array.from({ length: 12 }, () => `${">".repeat(Math.min(level, 5))} ${paragraph.slice(0, 72)}`).join("\n");
    out += "\n\n";
  }
  return out;
}
/** An Outlook chain: header blocks and unmarked messages. */
function outlookChain(room: number): string {
  let out = "";
  for (let n = 1; out.length < room; n++)
    out += `________________________________\nFrom: Person ${n} <p${n}@acme.test>\nSent: Monday, November ${n}, 2026 10:00 AM\nTo: Carol <carol@customer.test>\nSubject: RE: Printer\n\n${paragraph}\n${paragraph}\n\n`;
  return out;
}

const thread = quotedThread(SIZE - reply.length);
const chain = outlookChain(SIZE - reply.length);
const gmailText = `${reply}\n\n${thread}`;
const gmailHtml = `<div dir="ltr">${divs(reply)}</div><br><div class="gmail_quote"><div class="gmail_attr">On Mon, Nov 1, 2026 at 10:00 AM Support &lt;support@acme.test&gt; wrote:<br></div><blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex">${divs(thread)}</blockquote></div>`;
const outlookDesktop = `<html><head><style><!-- p.MsoNormal {margin:0cm;} --></style></head><body><div class="WordSection1">${reply
  .split("\n")
  .map((l) => `<p class="MsoNormal">${escapeHtml(l) || "&nbsp;"}<o:p></o:p></p>`)
  .join("")}${chain
  .split("\n\n")
  .map(
    (block) =>
      `<div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm"><p class="MsoNormal">${escapeHtml(block).replace(/\n/g, "<br>")}</p></div>`,
  )
  .join("")}</div></body></html>`;
const appleHtml = `<html><body dir="auto">${divs(reply)}<div><br><blockquote type="cite"><div>On 1 Nov 2026, at 10:00, Support &lt;support@acme.test&gt; wrote:</div>${divs(thread)}</blockquote></div></body></html>`;
const gmxText = `${reply}\n\n \n\nGesendet: Montag, 02. November 2026 um 10:00 Uhr\nVon: "Support" <support@acme.test>\nAn: carol@customer.test\nBetreff: Re: Drucker\n\n${chain}`;
const inline = `On Mon, Nov 1, 2026 at 10:00 AM Support <support@acme.test> wrote:\n${Array.from({ length: 40 }, (_, n) => `> Question ${n}: ${paragraph.slice(0, 60)}?\n\nAnswer ${n}: ${paragraph.slice(0, 90)}.\n`).join("\n")}\n${thread.slice(0, 8000)}`;
const glued = `${reply} On Mon, Nov 1, 2026 at 10:00 AM Support <support@acme.test> wrote:\n${thread}`;

const SHAPES: Array<[string, string | null, string]> = [
  ["Gmail plain text, quoted thread", null, gmailText],
  ["Gmail HTML + plain part", gmailHtml, gmailText],
  ["Outlook desktop HTML only (unmarked)", outlookDesktop, ""],
  ["Apple Mail HTML only", appleHtml, ""],
  ["GMX plain text, Gesendet: block", null, gmxText],
  ["inline answers, then the thread", null, inline],
  ["attribution glued to the reply", null, glued],
];

let worst = 0;
for (const [name, html, text] of SHAPES) {
  for (let i = 0; i < 50; i++) trimQuoted(html, text);
  const runs = 400;
  const cpu = process.cpuUsage();
  const started = performance.now();
  let trimmed = 0;
  for (let i = 0; i < runs; i++) if (trimQuoted(html, text).hasQuoted) trimmed++;
  const wall = (performance.now() - started) / runs;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000 / runs;
  // Per 20 KB: the HTML shapes carry markup on top of the 20 KB of text.
  const kb = Math.max(html?.length ?? 0, text.length) / 1024;
  const per20 = (cpuMs * 20) / kb;
  worst = Math.max(worst, per20);
  console.log(
    `${name.padEnd(38)} ${kb.toFixed(1).padStart(5)} KB  wall ${wall.toFixed(3)} ms  cpu ${cpuMs.toFixed(3)} ms  cpu per 20 KB ${per20.toFixed(3)} ms  trimmed ${trimmed}/${runs}`,
  );
}
console.log(`worst cpu per 20 KB message: ${worst.toFixed(3)} ms (aim: under 1 ms)`);

// Hostile shapes of 1 MB: the cost must grow with the size, not with its square.
const MB = 1024 * 1024;
const HOSTILE: Array<[string, string | null, string]> = [
  ["1 MB of alternating quote/answer lines", null, "> a\nb\n".repeat(MB / 6)],
  ["1 MB of header-like lines", null, "From: a\n".repeat(MB / 8)],
  ["1 MB of nested unclosed blockquotes", "<blockquote type=cite>x".repeat(MB / 24), ""],
  ["1 MB of cited passages with text after", "<blockquote type=cite>x</blockquote>y".repeat(MB / 37), ""],
  [
    "1 MB of closed styles before a quote",
    `${"<style>a</style><p>x</p>".repeat(MB / 24)}<div class=gmail_quote>q</div>`,
    "",
  ],
];
for (const [name, html, text] of HOSTILE) {
  const cpu = process.cpuUsage();
  trimQuoted(html, text);
  const used = process.cpuUsage(cpu);
  console.log(`${name.padEnd(44)} cpu ${((used.user + used.system) / 1000).toFixed(0)} ms`);
}
