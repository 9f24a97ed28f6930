import { describe, expect, test } from "bun:test";
import { trimQuoted } from "./mail.quote";

/**
 * One rule per client family, written from how each client lays out a reply (its attribution
 * line, header block or HTML container) in its own words and languages, not from the shared
 * corpus. Every case is a customer reply above (or below) the history; the history must go and
 * every line of the customer's must stay.
 */

const reply = "Thanks, the printer works again.\nCarol";
const history = "> Please restart the printer.\n> Support";
const text = (body: string) => trimQuoted(null, body);

/** Attribution lines as each client writes them above a `>` quote. */
const ATTRIBUTIONS: Array<[string, string]> = [
  ["Gmail en", "On Mon, Jan 5, 2026 at 10:00 AM Support <s@x.test> wrote:"],
  ["Gmail de", "Am Mo., 5. Jan. 2026 um 10:00 Uhr schrieb Support <s@x.test>:"],
  ["Gmail fr", "Le lun. 5 janv. 2026 à 10:00, Support <s@x.test> a écrit :"],
  ["Gmail es", "El lun, 5 ene 2026 a las 10:00, Support (<s@x.test>) escribió:"],
  ["Gmail it", "Il giorno lun 5 gen 2026 alle ore 10:00 Support <s@x.test> ha scritto:"],
  ["Gmail nl", "Op ma 5 jan. 2026 om 10:00 schreef Support <s@x.test>:"],
  ["Gmail pt", "Em seg., 5 de jan. de 2026 às 10:00, Support <s@x.test> escreveu:"],
  ["Gmail sv", "Den mån 5 jan. 2026 kl 10:00 skrev Support <s@x.test>:"],
  ["Gmail da", "man. 5. jan. 2026 kl. 10.00 skrev Support <s@x.test>:"],
  ["Gmail nb", "man. 5. jan. 2026 kl. 10:00 skrev Support <s@x.test>:"],
  ["Gmail fi", "ma 5. tammik. 2026 klo 10.00 Support (s@x.test) kirjoitti:"],
  ["Gmail pl", "pon., 5 sty 2026 o 10:00 Support <s@x.test> napisał(a):"],
  ["Gmail cs", "po 5. 1. 2026 v 10:00 odesílatel Support <s@x.test> napsal:"],
  ["Gmail ru", "пн, 5 янв. 2026 г. в 10:00, Support <s@x.test>:"],
  ["Gmail uk", "пн, 5 січ. 2026 о 10:00 Support <s@x.test> пише:"],
  ["Gmail hu", "Support <s@x.test> ezt írta (időpont: 2026. jan. 5., H, 10:00):"],
  ["Gmail tr", "Support <s@x.test>, 5 Oca 2026 Pzt, 10:00 tarihinde şunu yazdı:"],
  ["Gmail el", "Στις Δευ 5 Ιαν 2026 στις 10:00, ο/η Support <s@x.test> έγραψε:"],
  ["Gmail vi", "Vào 10:00 Th 2, 5 thg 1, 2026 Support <s@x.test> đã viết:"],
  ["Gmail zh", "Support <s@x.test> 于2026年1月5日周一 10:00写道："],
  ["Gmail ja", "2026年1月5日(月) 10:00 Support <s@x.test>:"],
  ["Gmail ko", "2026년 1월 5일 (월) 오전 10:00, Support <s@x.test>님이 작성:"],
  ["Apple Mail en", "On 5 Jan 2026, at 10:00, Support <s@x.test> wrote:"],
  ["Apple Mail de", "Am 05.01.2026 um 10:00 schrieb Support <s@x.test>:"],
  ["Apple Mail fr", "Le 5 janv. 2026 à 10:00, Support <s@x.test> a écrit :"],
  ["Thunderbird en", "On 05/01/2026 10:00, Support wrote:"],
  ["Thunderbird de", "Am 05.01.26 um 10:00 schrieb Support:"],
  ["Yahoo", "On Monday, January 5, 2026, 10:00:00 AM GMT+1, Support <s@x.test> wrote:"],
  ["Android Gmail", "On Mon, 5 Jan 2026, 10:00 Support, <s@x.test> wrote:"],
  ["K-9 Mail de", "Support <s@x.test> schrieb am 5. Januar 2026 10:00:00 MEZ:"],
  ["Zoho en", "---- On Mon, 05 Jan 2026 10:00:00 +0100 Support <s@x.test> wrote ----"],
  ["Zoho de", "---- Am Mo, 05 Jan 2026 10:00:00 +0100 schrieb Support <s@x.test> ----"],
  ["Proton", "On Monday, January 5th, 2026 at 10:00, Support <s@x.test> wrote:"],
  ["Lotus Notes", '"Support" <s@x.test> wrote on 05.01.2026 10:00:00:'],
];

describe("attribution lines of each client, above a quote", () => {
  for (const [client, line] of ATTRIBUTIONS) {
    test(client, () => {
      expect(text(`${reply}\n\n${line}\n\n${history}\n`)).toEqual({ html: null, text: reply, hasQuoted: true });
    });
  }
});

/** Header blocks: Outlook desktop/web/mobile, Outlook for Mac, GMX/Web.de, Samsung, in their languages. */
const HEADER_BLOCKS: Array<[string, string]> = [
  [
    "Outlook en",
    "From: Support <s@x.test>\nSent: Monday, January 5, 2026 10:00 AM\nTo: Carol <c@y.test>\nSubject: RE: Printer",
  ],
  [
    "Outlook de",
    "Von: Support <s@x.test>\nGesendet: Montag, 5. Januar 2026 10:00\nAn: Carol <c@y.test>\nBetreff: AW: Drucker",
  ],
  [
    "Outlook fr",
    "De : Support <s@x.test>\nEnvoyé : lundi 5 janvier 2026 10:00\nÀ : Carol <c@y.test>\nObjet : RE: Imprimante",
  ],
  [
    "Outlook fr nbsp",
    "De\u00a0: Support\nEnvoyé\u00a0: lundi 5 janvier 2026 10:00\nÀ\u00a0: Carol\nObjet\u00a0: RE: Imprimante",
  ],
  [
    "Outlook es",
    "De: Support <s@x.test>\nEnviado: lunes, 5 de enero de 2026 10:00\nPara: Carol <c@y.test>\nAsunto: RE: Impresora",
  ],
  [
    "Outlook es (el)",
    "De: Support <s@x.test>\nEnviado el: lunes, 5 de enero de 2026 10:00\nPara: Carol\nAsunto: RE: Impresora",
  ],
  [
    "Outlook nl",
    "Van: Support <s@x.test>\nVerzonden: maandag 5 januari 2026 10:00\nAan: Carol <c@y.test>\nOnderwerp: RE: Printer",
  ],
  [
    "Outlook it",
    "Da: Support <s@x.test>\nInviato: lunedì 5 gennaio 2026 10:00\nA: Carol <c@y.test>\nOggetto: R: Stampante",
  ],
  [
    "Outlook pt",
    "De: Support <s@x.test>\nEnviado: segunda-feira, 5 de janeiro de 2026 10:00\nPara: Carol\nAssunto: RE: Impressora",
  ],
  ["Outlook sv", "Från: Support <s@x.test>\nSkickat: den 5 januari 2026 10:00\nTill: Carol\nÄmne: SV: Skrivare"],
  [
    "Outlook pl",
    "Od: Support <s@x.test>\nWysłano: poniedziałek, 5 stycznia 2026 10:00\nDo: Carol\nTemat: RE: Drukarka",
  ],
  [
    "Outlook el",
    "Από: Support <s@x.test>\nΣτάλθηκε: Δευτέρα, 5 Ιανουαρίου 2026 10:00 πμ\nΠρος: Carol\nΘέμα: RE: Εκτυπωτής",
  ],
  ["Outlook he", "מאת: Support <s@x.test>\nנשלח: יום שני 05 ינואר 2026 10:00\nאל: Carol\nנושא: RE: מדפסת"],
  [
    "Outlook tr",
    "Gönderen: Support <s@x.test>\nGönderildi: 5 Ocak 2026 Pazartesi 10:00\nAlıcı: Carol\nKonu: YNT: Yazıcı",
  ],
  ["Outlook vi", "Từ: Support <s@x.test>\nĐã gửi: Thứ Hai, 5 tháng 1, 2026 10:00\nĐến: Carol\nChủ đề: TL: Máy in"],
  [
    "Outlook pt-BR",
    "De: Support <s@x.test>\nEnviado em: segunda-feira, 5 de janeiro de 2026 10:00\nPara: Carol\nAssunto: RE: Impressora",
  ],
  [
    "Foxmail / QQ Mail",
    '------------------ 原始邮件 ------------------\n发件人: "Support"<s@x.test>;\n发送时间: 2026年1月5日(星期一) 上午10:00\n收件人: "Carol"<c@y.test>;\n主题: Re: 打印机',
  ],
  ["Outlook ru", "От: Support <s@x.test>\nОтправлено: 5 января 2026 г. 10:00\nКому: Carol\nТема: RE: Принтер"],
  [
    "Outlook bold (web, as text)",
    "*From:* Support <s@x.test>\n*Sent:* Monday, January 5, 2026 10:00 AM\n*To:* Carol\n*Subject:* RE: Printer",
  ],
  [
    "Outlook for Mac, Date first",
    "Date: Monday, 5 January 2026 at 10:00\nFrom: Support <s@x.test>\nTo: Carol <c@y.test>\nSubject: Re: Printer",
  ],
  [
    "GMX/Web.de de",
    'Gesendet: Montag, 05. Januar 2026 um 10:00 Uhr\nVon: "Support" <s@x.test>\nAn: c@y.test\nBetreff: Re: Drucker',
  ],
  ["GMX fr", 'Envoyé : lundi 5 janvier 2026 à 10:00\nDe : "Support" <s@x.test>\nÀ : c@y.test\nObjet : Re: Imprimante'],
  [
    "Outlook es, date first",
    "Enviado: lunes, 5 de enero de 2026 10:00\nDe: Support <s@x.test>\nPara: Carol\nAsunto: RE: Impresora",
  ],
  [
    "Outlook nl, date first",
    "Verzonden: maandag 5 januari 2026 10:00\nVan: Support <s@x.test>\nAan: Carol\nOnderwerp: RE: Printer",
  ],
  [
    "Outlook mobile, rule",
    "________________________________\nFrom: Support <s@x.test>\nSent: Monday, January 5, 2026 10:00:12 AM\nTo: Carol\nSubject: RE: Printer",
  ],
  [
    "Samsung",
    "-------- Original message --------\nFrom: Support <s@x.test>\nDate: 05/01/2026 10:00 (GMT+01:00)\nTo: Carol\nSubject: Re: Printer",
  ],
  ["Proton", "------- Original Message -------\nOn Monday, January 5th, 2026 at 10:00, Support <s@x.test> wrote:"],
  [
    "Yahoo, old",
    "----- Original Message -----\nFrom: Support <s@x.test>\nTo: Carol\nSent: Monday, January 5, 2026 10:00 AM\nSubject: Re: Printer",
  ],
  [
    "Outlook de Ursprüngliche",
    "-----Ursprüngliche Nachricht-----\nVon: Support <s@x.test>\nGesendet: Montag, 5. Januar 2026 10:00",
  ],
];

describe("header blocks of each client start unmarked history", () => {
  for (const [client, block] of HEADER_BLOCKS) {
    test(client, () => {
      const body = `${reply}\n\n${block}\n\nPlease restart the printer.\nSupport\n`;
      expect(text(body)).toEqual({ html: null, text: reply, hasQuoted: true });
    });
  }

  test("a customer's own Date:, To: or Subject: lines are not a header block", () => {
    for (const body of [
      "Date: Monday works for us\nTo: whoever reads this\nThanks",
      "Subject: the invoice\nDate: 5 January\nCould you resend it?",
      "From: the accounts team\nWe still wait for the refund.",
      "Date: Mon, 5 Jan 2026 10:00:00 +0100\nTo: Carol <c@y.test>\nSubject: Re: Printer\nThis is what your system sent me.",
    ])
      expect(text(body)).toEqual({ html: null, text: body, hasQuoted: false });
  });
});

describe("an Outlook forward chain", () => {
  const block = (n: number) =>
    `From: Person ${n} <p${n}@x.test>\nSent: Monday, January ${n}, 2026 10:00 AM\nTo: Person ${n + 1} <p${n + 1}@x.test>\nCc: Team <team@x.test>\nSubject: FW: Printer\n\nMessage ${n} of the chain.\n`;
  const chain = Array.from({ length: 6 }, (_, n) => block(n + 1)).join("\n________________________________\n");

  test("the customer's note above six header blocks is the reply", () => {
    expect(text(`Please see the thread below.\nCarol\n\n________________________________\n${chain}`)).toEqual({
      html: null,
      text: "Please see the thread below.\nCarol",
      hasQuoted: true,
    });
  });

  test("the same chain from Outlook desktop HTML (no marked container)", () => {
    const html = `<div class="WordSection1"><p class="MsoNormal">Please see the thread below.</p><p class="MsoNormal">Carol</p>${Array.from(
      { length: 6 },
      (_, n) =>
        `<div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm"><p class="MsoNormal"><b>From:</b> Person ${n} &lt;p${n}@x.test&gt; <br><b>Sent:</b> Monday, January 5, 2026 10:00 AM<br><b>To:</b> Person ${n + 1}<br><b>Subject:</b> FW: Printer</p></div><p class="MsoNormal">Message ${n} of the chain.</p>`,
    ).join("")}</div>`;
    const body = trimQuoted(html, "");
    expect(body.text).toBe("Please see the thread below.\nCarol");
    expect(body.hasQuoted).toBe(true);
  });
});

describe("an attribution glued to the customer's line", () => {
  test("on the same line as the reply (mobile clients that drop the line break)", () => {
    expect(
      text(`Sounds good, see you then. On Mon, Jan 5, 2026 at 10:00 AM Support <s@x.test> wrote:\n${history}`),
    ).toEqual({
      html: null,
      text: "Sounds good, see you then.",
      hasQuoted: true,
    });
  });

  test("after a dash run (Zoho's ---- On … wrote ----)", () => {
    expect(
      text(`Thanks, that fixed it.---- On Mon, 05 Jan 2026 10:00:00 +0100 Support <s@x.test> wrote ----\n\n${history}`),
    ).toEqual({
      html: null,
      text: "Thanks, that fixed it.",
      hasQuoted: true,
    });
  });

  test("an Original Message separator glued to the sign-off", () => {
    expect(
      text(
        `Thanks, Carol-----Original Message-----\nFrom: Support <s@x.test>\nSent: Monday, January 5, 2026 10:00 AM\nTo: Carol\n\nOld`,
      ),
    ).toEqual({ html: null, text: "Thanks, Carol", hasQuoted: true });
  });

  test("a customer sentence that only mentions writing is not cut", () => {
    const body = "On Monday at 10:00 my colleague wrote:\nthe printer is on fire.\nPlease help.";
    expect(text(body)).toEqual({ html: null, text: body, hasQuoted: false });
    const above = "As I wrote on 5 May about this:\n> the queue is stuck\n\nIt still is.";
    expect(text(above).text).toContain("As I wrote on 5 May about this:");
  });
});

describe("HTML containers of each client", () => {
  const mine = "<div>Thanks, the printer works again.</div><div>Carol</div>";
  const CONTAINERS: Array<[string, string]> = [
    [
      "Gmail",
      '<div class="gmail_quote"><div class="gmail_attr">On Mon, Jan 5, 2026 at 10:00 AM Support &lt;s@x.test&gt; wrote:<br></div><blockquote class="gmail_quote">Old</blockquote></div>',
    ],
    [
      "Apple Mail",
      '<div><br><blockquote type="cite"><div>On 5 Jan 2026, at 10:00, Support &lt;s@x.test&gt; wrote:</div><div>Old</div></blockquote></div>',
    ],
    [
      "Thunderbird",
      '<div class="moz-cite-prefix">On 05/01/2026 10:00, Support wrote:<br></div><blockquote type="cite" cite="mid:x@y">Old</blockquote>',
    ],
    [
      "Outlook web",
      '<hr style="display:inline-block;width:98%"><div id="divRplyFwdMsg" dir="ltr"><b>From:</b> Support<br><b>Sent:</b> Monday</div><div>Old</div>',
    ],
    [
      "Yahoo",
      '<div class="yahoo_quoted"><div>On Monday, January 5, 2026, 10:00:00 AM GMT+1, Support wrote:</div><div>Old</div></div>',
    ],
    [
      "Proton",
      '<div class="protonmail_quote">------- Original Message -------<br>On Monday, January 5th, 2026 at 10:00, Support wrote:<br><blockquote class="protonmail_quote" type="cite">Old</blockquote></div>',
    ],
    [
      "Zoho",
      '<div class="zmail_extra_hr"></div><div class="zmail_extra"><div><br></div><div id="1">---- On Mon, 05 Jan 2026 10:00:00 +0100 <b>Support &lt;s@x.test&gt;</b> wrote ---<br></div><blockquote class="zmail_extra">Old</blockquote></div>',
    ],
    [
      "GMX/Web.de",
      '<div name="quote" style="margin:10px 5px 5px 10px; padding: 10px 0 10px 10px; border-left:2px solid #C3D9E5;"><div style="margin:0 0 10px 0;"><b>Gesendet:</b>&nbsp;Montag, 05. Januar 2026 um 10:00 Uhr<br><b>Von:</b>&nbsp;Support<br></div><div name="quoted-content">Old</div></div>',
    ],
  ];
  for (const [client, quote] of CONTAINERS) {
    test(client, () => {
      const body = trimQuoted(`${mine}${quote}`, "");
      expect(body.text).toBe(reply);
      expect(body.hasQuoted).toBe(true);
    });
  }

  test("the plain part's reply, links written with their address, is the stored text", () => {
    const html = `<div>See <a href="https://x.test/log">the log</a>.</div>${CONTAINERS[0]![1]}`;
    const plain = `See the log (https://x.test/log).\n\n${ATTRIBUTIONS[0]![1]}\n${history}`;
    expect(trimQuoted(html, plain)).toEqual({
      html: '<div>See <a href="https://x.test/log">the log</a>.</div>',
      text: "See the log (https://x.test/log).",
      hasQuoted: true,
    });
  });

  test("the customer's own blockquote above the attribution stays", () => {
    const html = `<div>You wrote in the manual:</div><blockquote type="cite">Restart the printer twice.</blockquote><div>That did not help.</div><blockquote style="margin:0 0 0 40px;border:none;padding:0px"><div>Model 4200, serial 77</div></blockquote><div>On Mon, Jan 5, 2026 at 10:00 AM Support &lt;s@x.test&gt; wrote:</div><blockquote type="cite">Old</blockquote>`;
    const body = trimQuoted(html, "");
    for (const line of [
      "You wrote in the manual:",
      "Restart the printer twice.",
      "That did not help.",
      "Model 4200, serial 77",
    ])
      expect(body.text).toContain(line);
    expect(body.text).not.toContain("Old");
    expect(body.hasQuoted).toBe(true);
  });

  test("Gmail's indent (a borderless blockquote) is the customer's text, not a quote", () => {
    const html =
      '<div>Steps I tried:</div><blockquote style="margin:0 0 0 40px;border:none;padding:0px"><div>Switched it off and on.</div></blockquote><div>On Mon, Jan 5, 2026 at 10:00 AM Support &lt;s@x.test&gt; wrote:</div><blockquote style="margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex">Old</blockquote>';
    const body = trimQuoted(html, "");
    expect(body.text.replace(/\n+/g, "\n")).toBe("Steps I tried:\nSwitched it off and on.");
  });
});

describe("a passage the customer quoted above the history", () => {
  const attribution = "On Mon, Jan 5, 2026 at 10:00 AM Support <s@x.test> wrote:";

  test("right above an attribution, it stays", () => {
    expect(text(`Regarding this:\n> restart the printer twice\n\n${attribution}\n${history}`)).toEqual({
      html: null,
      text: "Regarding this:\n> restart the printer twice",
      hasQuoted: true,
    });
  });

  test("answered, above an Outlook header block, it stays", () => {
    const body = `> restart the printer twice\nThat did not help.\n\n${HEADER_BLOCKS[0]![1]}\n\nOld`;
    expect(text(body)).toEqual({
      html: null,
      text: "> restart the printer twice\nThat did not help.",
      hasQuoted: true,
    });
  });
});

describe("quoted blocks as clients wrap them", () => {
  test("a long link wrapped without > stays inside the quote (talon-style detection goes on)", () => {
    const body = [
      "Done, thanks.",
      "",
      "On Mon, Jan 5, 2026 at 10:00 AM Support <s@x.test> wrote:",
      "> Please follow https://help.example.test/kb/",
      "Printer-Reset_Guide.html?ref=mail&utm_source=desk",
      "> and tell us how it went.",
      "> Support",
    ].join("\n");
    expect(text(body)).toEqual({ html: null, text: "Done, thanks.", hasQuoted: true });
  });

  test("a short answer between quoted lines is not taken for a wrapped link", () => {
    const body =
      "On Mon, Jan 5, 2026 at 10:00 AM Support <s@x.test> wrote:\n> Open https://help.example.test/a\nYes, done.\n> And the second step?\nAlso done.";
    const trimmed = text(body);
    expect(trimmed.text).toContain("Yes, done.");
    expect(trimmed.text).toContain("Also done.");
  });
});

describe("what the client adds between the reply and the history", () => {
  test("Outlook mobile's and Windows Mail's advert lines go with the history", () => {
    for (const footer of [
      "Get Outlook for iOS<https://aka.ms/o0ukef>",
      "Sent from Mail for Windows 10",
      "Outlook für Android beziehen",
    ])
      expect(text(`${reply}\n\n${footer}\n\n${HEADER_BLOCKS[0]![1]}\n\nOld`).text).toBe(reply);
  });

  test("a device signature the person kept stays", () => {
    expect(text(`${reply}\n\nSent from my iPhone\n\n${ATTRIBUTIONS[0]![1]}\n${history}`).text).toBe(
      `${reply}\n\nSent from my iPhone`,
    );
  });

  test("a sig-dash signature right above the quote goes with it, a sign-off without one stays", () => {
    expect(text(`${reply}\n\n-- \nCarol Example\nACME Ltd\n\n${ATTRIBUTIONS[0]![1]}\n${history}`).text).toBe(reply);
    expect(text(`Thanks!\n\nBest,\nCarol\n\n${ATTRIBUTIONS[0]![1]}\n${history}`).text).toBe("Thanks!\n\nBest,\nCarol");
  });
});
