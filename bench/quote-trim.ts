/**
 * Quote trimming cost per inbound message (it runs on every one): a 20 KB reply, as plain text
 * with a quoted thread, as HTML with a Gmail quote, and as HTML with no marked quote (read as
 * text). Run: bun bench/quote-trim.ts. Aim: under 1 ms per message.
 */
import { trimQuoted } from "../src/mail/mail.quote";

const paragraph =
  "Thanks for getting back to me so quickly. The printer on the third floor still shows the same error after the restart you suggested, and the queue keeps growing.";
const reply = Array.from({ length: 6 }, () => paragraph).join("\n\n");
let quoted = "";
for (let level = 1; quoted.length < 19_000; level++) {
  quoted += `On Mon, Nov ${level}, 2026 at 10:0${level % 10} AM, Support <support@acme.test> wrote:\n`;
  quoted += Array.from({ length: 12 }, () => `${">".repeat(Math.min(level, 5))} ${paragraph.slice(0, 72)}`).join("\n");
  quoted += "\n\n";
}
const text = `${reply}\n\nBest regards,\nCarol\n\n${quoted}`;
const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const htmlReply = reply
  .split("\n\n")
  .map((p) => `<div>${escapeHtml(p)}</div>`)
  .join("");
const gmail = `<div dir="ltr">${htmlReply}<div>Best regards,<br>Carol</div></div><br><div class="gmail_quote"><div class="gmail_attr">On Mon, Nov 1, 2026 at 10:00 AM, Support &lt;support@acme.test&gt; wrote:<br></div><blockquote class="gmail_quote">${escapeHtml(quoted).replace(/\n/g, "<br>")}</blockquote></div>`;
const unmarked = `<div>${htmlReply}<div>Best regards,<br>Carol</div><hr><p><b>From:</b> Support &lt;support@acme.test&gt;<br><b>Sent:</b> Monday, November 1, 2026 10:00 AM<br><b>To:</b> Carol<br><b>Subject:</b> Printer</p>${escapeHtml(quoted).replace(/\n/g, "<br>")}</div>`;

function measure(name: string, html: string | null, plain: string) {
  for (let i = 0; i < 50; i++) trimQuoted(html, plain);
  const runs = 500;
  const started = performance.now();
  let removed = 0;
  for (let i = 0; i < runs; i++) if (trimQuoted(html, plain).hasQuoted) removed++;
  const ms = (performance.now() - started) / runs;
  const size = ((html ?? "").length + plain.length) / 1024;
  console.log(
    `${name.padEnd(34)} ${size.toFixed(1).padStart(5)} KB  ${ms.toFixed(3)} ms/message  trimmed ${removed}/${runs}`,
  );
}

measure("plain text, quoted thread", null, text);
measure("HTML (gmail_quote) + plain part", gmail, text);
measure("HTML only, Outlook header block", unmarked, "");
