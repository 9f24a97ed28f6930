import base64, json, os, quopri
# Writes the awkward-mail corpus and expected.json (what the corpus test checks for each file).
# Run with Debian's /usr/bin/python3 (it has every codec used here). Random bytes differ per run.
OUT = os.path.dirname(os.path.abspath(__file__))
os.makedirs(OUT, exist_ok=True)
manifest = []
CRLF = b"\r\n"

def hdr(from_=b"Carol <carol@customer.test>", subject=None, mid=None, extra=()):
    lines = []
    if from_ is not None: lines.append(b"From: " + from_)
    lines.append(b"To: support@corpus.test")
    if subject is not None: lines.append(b"Subject: " + subject)
    if mid is not None: lines.append(b"Message-ID: <" + mid.encode() + b">")
    lines.append(b"Date: Mon, 23 Nov 2026 10:00:00 +0000")
    lines.extend(extra)
    return lines

def write(name, data, expect="stored", **kw):
    with open(os.path.join(OUT, name), "wb") as f: f.write(data)
    entry = {"file": name, "expect": expect}
    entry.update(kw)
    manifest.append(entry)

def simple(name, subject_hdr, decoded, body=b"Hello.", ctype=b"text/plain; charset=utf-8", text=None, extra=(), cte=None):
    mid = name.replace(".eml", "") + "@corpus.test"
    lines = hdr(subject=subject_hdr, mid=mid, extra=(b"MIME-Version: 1.0", b"Content-Type: " + ctype) + ((b"Content-Transfer-Encoding: " + cte,) if cte else ()) + tuple(extra))
    write(name, CRLF.join(lines) + CRLF + CRLF + body + CRLF, message_id=mid, subject=decoded, **({"text": text} if text else {}))

def ew(charset, s, enc="B"):
    raw = s.encode(charset)
    if enc == "B": return b"=?" + charset.encode() + b"?B?" + base64.b64encode(raw) + b"?="
    q = quopri.encodestring(raw, header=True).replace(b"=\n", b"")
    return b"=?" + charset.encode() + b"?Q?" + q + b"?="

# 1-2: missing From / invalid From: refused
write("no-from.eml", CRLF.join(hdr(from_=None, subject=b"Nobody sent this", mid="no-from@corpus.test")) + CRLF + CRLF + b"Who am I?" + CRLF, expect="refused", reason="no_from_address", message_id="no-from@corpus.test")
write("invalid-from.eml", CRLF.join(hdr(from_=b"not an address at all", subject=b"Bad from", mid="invalid-from@corpus.test")) + CRLF + CRLF + b"Hi" + CRLF, expect="refused", reason="no_from_address", message_id="invalid-from@corpus.test")
# 3: no Message-ID: stored, deduped by content
write("no-message-id.eml", CRLF.join(hdr(subject=b"No Message-ID here")) + CRLF + CRLF + b"Dedupe me by my bytes." + CRLF, subject="No Message-ID here", text="Dedupe me by my bytes.")

# encoded words in many charsets
samples = [
    ("ew-iso-8859-1.eml", "iso-8859-1", "Café crème à la française", "Q"),
    ("ew-iso-8859-2.eml", "iso-8859-2", "Zażółć gęślą jaźń", "B"),
    ("ew-iso-8859-5.eml", "iso-8859-5", "Привет из Москвы", "B"),
    ("ew-iso-8859-7.eml", "iso-8859-7", "Καλημέρα κόσμε", "Q"),
    ("ew-iso-8859-15.eml", "iso-8859-15", "Rechnung über 100 €", "Q"),
    ("ew-windows-1250.eml", "windows-1250", "Příliš žluťoučký kůň", "B"),
    ("ew-windows-1251.eml", "windows-1251", "Счёт на оплату", "B"),
    ("ew-windows-1252.eml", "windows-1252", "“Smart” quotes – and dashes…", "Q"),
    ("ew-koi8-r.eml", "koi8-r", "Добрый день, принтер сломан", "B"),
    ("ew-shift_jis.eml", "shift_jis", "プリンターが壊れました", "B"),
    ("ew-iso-2022-jp.eml", "iso-2022-jp", "お問い合わせ", "B"),
    ("ew-gb2312.eml", "gb2312", "打印机坏了", "B"),
    ("ew-big5.eml", "big5", "印表機壞了", "B"),
    ("ew-euc-kr.eml", "euc-kr", "프린터가 고장났어요", "B"),
    ("ew-utf-8-emoji.eml", "utf-8", "Printer 🔥 on fire", "B"),
]
for name, cs, text, enc in samples:
    simple(name, ew(cs, text, enc), text, body=("Body: " + text).encode(cs), ctype=b"text/plain; charset=" + cs.encode(), text="Body: " + text)

# UTF-7 (mailparser decodes it through iconv-lite): subject checked loosely
simple("ew-utf-7.eml", b"=?utf-7?B?" + base64.b64encode("Grüße aus Köln".encode("utf-7")) + b"?=", "Grüße aus Köln", body="Grüße".encode("utf-7"), ctype=b"text/plain; charset=utf-7")
# unknown charset: readable somehow, never a crash
mid = "ew-unknown-charset@corpus.test"
write("ew-unknown-charset.eml", CRLF.join(hdr(subject=b"=?x-klingon?Q?Qapla=27?=", mid=mid, extra=(b"Content-Type: text/plain; charset=x-klingon",))) + CRLF + CRLF + b"nuqneH" + CRLF, message_id=mid, text="nuqneH")
# encoded word split across folded lines
simple("ew-folded.eml", ew("utf-8", "Ein sehr langer Betreff, ") + b"\r\n " + ew("utf-8", "über zwei Zeilen gefaltet"), "Ein sehr langer Betreff, über zwei Zeilen gefaltet")
# 8-bit headers, not encoded
simple("8bit-header-utf8.eml", "Ünïcödé ohne Kodierung".encode("utf-8"), "Ünïcödé ohne Kodierung")
mid = "8bit-header-latin1@corpus.test"
write("8bit-header-latin1.eml", CRLF.join(hdr(from_="Jürgen Müller <juergen@customer.test>".encode("latin-1"), subject="Grüße, Jürgen".encode("latin-1"), mid=mid, extra=(b"Content-Type: text/plain; charset=iso-8859-1",))) + CRLF + CRLF + "Schöne Grüße".encode("latin-1") + CRLF, message_id=mid, subject="Grüße, Jürgen", text="Schöne Grüße")

# body charsets
simple("body-koi8-r.eml", b"Body in KOI8-R", "Body in KOI8-R", body="Принтер не печатает".encode("koi8-r"), ctype=b"text/plain; charset=koi8-r", text="Принтер не печатает")
simple("body-shift_jis-qp.eml", b"Body in Shift_JIS", "Body in Shift_JIS", body=quopri.encodestring("印刷できません".encode("shift_jis")), ctype=b"text/plain; charset=shift_jis", cte=b"quoted-printable", text="印刷できません")

# quoted-printable soft breaks
qp_body = b"This is a long line that was wrapped with soft line breaks so that it=\r\n stays under seventy-six characters; equals sign: =3D; caf=C3=A9=\r\n" + b"\r\nEnd."
simple("qp-soft-breaks.eml", b"Soft breaks", "Soft breaks", body=qp_body, cte=b"quoted-printable", text="so that it stays under seventy-six characters; equals sign: =; café")
# overlong line (20 000 chars, beyond RFC 5322's 998)
simple("overlong-line.eml", b"Overlong line", "Overlong line", body=b"A" * 20000 + b" END", text="END")
# null bytes in body and header
mid = "null-bytes@corpus.test"
write("null-bytes.eml", CRLF.join(hdr(subject=b"Null\x00bytes", mid=mid, extra=(b"X-Weird: a\x00b",))) + CRLF + CRLF + b"before\x00after" + CRLF, message_id=mid, subject="Nullbytes", text="beforeafter")
# missing Content-Type: defaults to text/plain us-ascii
mid = "missing-content-type@corpus.test"
write("missing-content-type.eml", CRLF.join(hdr(subject=b"No content type", mid=mid, extra=(b"MIME-Version: 1.0",))) + CRLF + CRLF + b"Plain by default." + CRLF, message_id=mid, subject="No content type", text="Plain by default.")
# duplicate headers: the first of each wins
mid = "duplicate-headers@corpus.test"
write("duplicate-headers.eml", CRLF.join([b"From: First <first@customer.test>", b"From: Second <second@customer.test>", b"To: support@corpus.test", b"Subject: First subject", b"Subject: Second subject", b"Message-ID: <" + mid.encode() + b">", b"Message-ID: <other-dup@corpus.test>", b"Content-Type: text/plain", b"Content-Type: text/html"]) + CRLF + CRLF + b"Which one?" + CRLF, message_id=mid, text="Which one?")
# garbage date, empty body, headers only
simple("bad-date.eml", b"Bad date", "Bad date", extra=(b"Date: the day after tomorrow",))
simple("empty-body.eml", b"Empty body", "Empty body", body=b"")
mid = "headers-only@corpus.test"
write("headers-only.eml", CRLF.join(hdr(subject=b"Headers only", mid=mid)) + CRLF, message_id=mid, subject="Headers only")
# LF-only line endings, and a bare CR
mid = "lf-only@corpus.test"
write("lf-only.eml", b"\n".join(hdr(subject=b"LF only", mid=mid)) + b"\n\nUnix line endings.\n", message_id=mid, subject="LF only", text="Unix line endings.")
simple("bare-cr.eml", b"Bare CR", "Bare CR", body=b"one\rtwo\r\nthree", text="three")
# undisclosed recipients, comments and groups
mid = "group-addresses@corpus.test"
write("group-addresses.eml", CRLF.join([b"From: (comment) \"Carol, the \\\"Boss\\\"\" <carol@customer.test> (another)", b"To: undisclosed-recipients:;", b"Cc: Team: a@customer.test, b@customer.test;", b"Subject: Group addresses", b"Message-ID: <" + mid.encode() + b">"]) + CRLF + CRLF + b"Groups." + CRLF, message_id=mid, subject="Group addresses", text="Groups.")
# 2000 extra headers
mid = "many-headers@corpus.test"
write("many-headers.eml", CRLF.join(hdr(subject=b"Many headers", mid=mid) + [b"X-Filler-%d: %s" % (i, b"v" * 40) for i in range(2000)]) + CRLF + CRLF + b"Many." + CRLF, message_id=mid, subject="Many headers", text="Many.")

def multipart(name, subject_hdr, parts, boundary=b"b0undary", ctype=b"multipart/mixed", close=True, extra=(), **kw):
    mid = name.replace(".eml", "") + "@corpus.test"
    lines = hdr(subject=subject_hdr, mid=mid, extra=(b"MIME-Version: 1.0", b"Content-Type: " + ctype + b"; boundary=\"" + boundary + b"\"") + tuple(extra))
    body = b""
    for p in parts: body += b"--" + boundary + CRLF + p + CRLF
    if close: body += b"--" + boundary + b"--" + CRLF
    write(name, CRLF.join(lines) + CRLF + CRLF + b"Preamble." + CRLF + body, message_id=mid, **kw)

TEXT = lambda t: b"Content-Type: text/plain; charset=utf-8" + CRLF + CRLF + t
HTML = lambda h: b"Content-Type: text/html; charset=utf-8" + CRLF + CRLF + h
def attach(ctype, filename, data, extra=b""):
    return b"Content-Type: " + ctype + b"; name=\"" + filename + b"\"" + CRLF + b"Content-Disposition: attachment; filename=\"" + filename + b"\"" + CRLF + extra + b"Content-Transfer-Encoding: base64" + CRLF + CRLF + base64.encodebytes(data).replace(b"\n", CRLF)

PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")
# broken boundaries
mid = "broken-boundary@corpus.test"
write("broken-boundary.eml", CRLF.join(hdr(subject=b"Broken boundary", mid=mid, extra=(b"MIME-Version: 1.0", b"Content-Type: multipart/mixed; boundary=\"declared\""))) + CRLF + CRLF + b"--actual" + CRLF + TEXT(b"Part with the wrong boundary") + CRLF + b"--actual--" + CRLF, message_id=mid, subject="Broken boundary", text="Part with the wrong boundary")
multipart("unclosed-multipart.eml", b"Unclosed multipart", [TEXT(b"The closing boundary never comes"), attach(b"text/plain", b"notes.txt", b"some notes")], close=False, subject="Unclosed multipart", text="The closing boundary never comes")
mid = "multipart-no-boundary@corpus.test"
write("multipart-no-boundary.eml", CRLF.join(hdr(subject=b"Multipart without boundary", mid=mid, extra=(b"MIME-Version: 1.0", b"Content-Type: multipart/mixed"))) + CRLF + CRLF + b"Where are the parts?" + CRLF, message_id=mid, subject="Multipart without boundary", text="Where are the parts?")
multipart("bad-base64.eml", b"Bad base64", [TEXT(b"See attachment"), b"Content-Type: application/octet-stream; name=\"x.bin\"" + CRLF + b"Content-Transfer-Encoding: base64" + CRLF + CRLF + b"!!!not*base64###" + CRLF + b"QUJD"], subject="Bad base64", text="See attachment")
multipart("unknown-transfer-encoding.eml", b"Unknown transfer encoding", [b"Content-Type: text/plain" + CRLF + b"Content-Transfer-Encoding: x-uuencode-ish" + CRLF + CRLF + b"Readable anyway"], subject="Unknown transfer encoding")
# nested multipart: mixed > alternative + related (inline cid image) + attachment
related = b"Content-Type: multipart/related; boundary=\"rel\"" + CRLF + CRLF + b"--rel" + CRLF + HTML(b"<p>Look: <img src=\"cid:logo@corpus\"></p>") + CRLF + b"--rel" + CRLF + b"Content-Type: image/png" + CRLF + b"Content-ID: <logo@corpus>" + CRLF + b"Content-Disposition: inline; filename=\"logo.png\"" + CRLF + b"Content-Transfer-Encoding: base64" + CRLF + CRLF + base64.b64encode(PNG) + CRLF + b"--rel--"
alternative = b"Content-Type: multipart/alternative; boundary=\"alt\"" + CRLF + CRLF + b"--alt" + CRLF + TEXT(b"Look: [logo]") + CRLF + b"--alt" + CRLF + related + CRLF + b"--alt--"
multipart("nested-multipart.eml", b"Nested multipart", [alternative, attach(b"application/pdf", b"invoice.pdf", b"%PDF-1.4\n%fake pdf\n")], subject="Nested multipart", text="Look", attachments=["logo.png", "invoice.pdf"])
# 60 levels of nesting
deep = TEXT(b"Deep inside")
for i in range(60):
    b = b"d%d" % i
    deep = b"Content-Type: multipart/mixed; boundary=\"" + b + b"\"" + CRLF + CRLF + b"--" + b + CRLF + deep + CRLF + b"--" + b + b"--"
multipart("deeply-nested.eml", b"Deeply nested", [deep], subject="Deeply nested")
# TNEF
tnef = bytes([0x78, 0x9F, 0x3E, 0x22]) + b"\x01\x00" + os.urandom(200)
multipart("tnef-winmail.eml", b"Outlook rich text", [TEXT(b"See winmail.dat"), attach(b"application/ms-tnef", b"winmail.dat", tnef)], subject="Outlook rich text", attachments=["winmail.dat"])
# HTML only, hostile
simple("html-only.eml", b"HTML only", "HTML only", body=b"<html><head><style>p{}</style><script>alert(1)</script></head><body><p onclick=\"evil()\">Hello <b>there</b></p><a href=\"javascript:alert(1)\">click</a><img src=\"https://tracker.test/p.gif\"></body></html>", ctype=b"text/html; charset=utf-8", text="Hello there")
# forwarded chain (message/rfc822 part) and inline forward
inner = CRLF.join([b"From: Dave <dave@elsewhere.test>", b"To: carol@customer.test", b"Subject: Original problem", b"Message-ID: <inner-original@elsewhere.test>", b"Content-Type: text/plain", b"", b"The original complaint."])
multipart("forwarded-attached.eml", b"Fwd: Original problem", [TEXT(b"Forwarding this to you."), b"Content-Type: message/rfc822" + CRLF + b"Content-Disposition: attachment" + CRLF + CRLF + inner], subject="Fwd: Original problem", text="Forwarding this to you.")
simple("forwarded-inline.eml", b"Fwd: Fwd: Re: chain", "Fwd: Fwd: Re: chain", body=b"Please help.\r\n\r\n---------- Forwarded message ---------\r\nFrom: Dave <dave@elsewhere.test>\r\nSubject: Re: chain\r\n\r\n> > quoted twice\r\n> quoted once\r\n", text="Please help.")
# automated mail
simple("auto-reply-ooo.eml", b"Out of office: Printer", "Out of office: Printer", body=b"I am away until Monday.", extra=(b"Auto-Submitted: auto-replied", b"X-Autoreply: yes"))
simple("mailing-list.eml", b"[list] Weekly digest", "[list] Weekly digest", extra=(b"List-Id: <digest.list.test>", b"Precedence: list"))
# DSN for a message we never sent: a bounce outcome, no ticket
multipart("dsn-bounce.eml", b"Undelivered Mail Returned to Sender", [TEXT(b"Could not deliver."), b"Content-Type: message/delivery-status" + CRLF + CRLF + b"Reporting-MTA: dns; mx.customer.test" + CRLF + CRLF + b"Final-Recipient: rfc822; ghost@customer.test" + CRLF + b"Action: failed" + CRLF + b"Status: 5.1.1", b"Content-Type: text/rfc822-headers" + CRLF + CRLF + b"Message-ID: <never-sent@desk.test>"], ctype=b"multipart/report; report-type=delivery-status", expect="bounce")
# calendar invite
ics = b"BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nSUMMARY:Printer review\r\nDTSTART:20261201T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR"
multipart("calendar-invite.eml", b"Invitation: Printer review", [b"Content-Type: multipart/alternative; boundary=\"calalt\"" + CRLF + CRLF + b"--calalt" + CRLF + TEXT(b"You are invited to the printer review.") + CRLF + b"--calalt" + CRLF + b"Content-Type: text/calendar; method=REQUEST; charset=utf-8" + CRLF + CRLF + ics + CRLF + b"--calalt--", attach(b"application/ics", b"invite.ics", ics)], subject="Invitation: Printer review", text="printer review")
# S/MIME signed and encrypted
multipart("smime-signed.eml", b"Signed message", [TEXT(b"This message is signed."), attach(b"application/pkcs7-signature", b"smime.p7s", os.urandom(300))], boundary=b"sig", ctype=b"multipart/signed; protocol=\"application/pkcs7-signature\"; micalg=sha-256", subject="Signed message", text="This message is signed.")
mid = "smime-encrypted@corpus.test"
write("smime-encrypted.eml", CRLF.join(hdr(subject=b"Encrypted message", mid=mid, extra=(b"MIME-Version: 1.0", b"Content-Type: application/pkcs7-mime; smime-type=enveloped-data; name=\"smime.p7m\"", b"Content-Transfer-Encoding: base64", b"Content-Disposition: attachment; filename=\"smime.p7m\""))) + CRLF + CRLF + base64.encodebytes(os.urandom(400)).replace(b"\n", CRLF), message_id=mid, subject="Encrypted message", attachments=["smime.p7m"])
# RFC 2231 encoded filename
multipart("rfc2231-filename.eml", b"Attachment with a Latin-1 name", [TEXT(b"See file"), b"Content-Type: text/plain" + CRLF + b"Content-Disposition: attachment; filename*=iso-8859-1''Pr%FCfbericht%20%E4%F6.txt" + CRLF + CRLF + b"report"], subject="Attachment with a Latin-1 name", attachments=["Prüfbericht äö.txt"])
# hostile attachment filename
multipart("hostile-filename.eml", b"Hostile file name", [TEXT(b"See file"), attach(b"text/plain", b"../../etc/passwd", b"root:x:0:0")], subject="Hostile file name", attachments=["passwd"])
# attachment only, no text part
multipart("attachment-only.eml", b"Attachment only", [attach(b"image/png", b"screenshot.png", PNG)], subject="Attachment only", attachments=["screenshot.png"])
# In-Reply-To to something unknown: a new ticket
simple("reply-to-unknown.eml", b"Re: something we never sent", "Re: something we never sent", extra=(b"In-Reply-To: <ghost@nowhere.test>", b"References: <a@b> <ghost@nowhere.test> garbage"))
# header injection attempts in the subject
simple("crlf-in-encoded-subject.eml", b"=?utf-8?B?" + base64.b64encode(b"Line one\r\nBcc: victim@evil.test") + b"?=", "Line one Bcc: victim@evil.test")

with open(os.path.join(OUT, "expected.json"), "w") as f:
    json.dump(manifest, f, indent=1, ensure_ascii=False)
print(len(manifest), "messages")
