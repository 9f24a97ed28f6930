import { describe, expect, test } from "bun:test";
import { MENTION_TOKEN, withMentions } from "../web/src/tickets/mentions";
import { mentionedUserIds } from "../src/notifications/notifications.mentions";
import { sanitizeHtmlBody } from "../src/lib/sanitize";

describe("note mentions (composer → server)", () => {
  test("picked names become mention markup, longest first, only as whole words after a space or tag", () => {
    const html = withMentions("<p>@Ann Lee and @Ann, not x@Ann or @Annie</p>", { Ann: "u1", "Ann Lee": "u2" });
    expect(html).toBe(
      '<p><span data-mention="u2">@Ann Lee</span> and <span data-mention="u1">@Ann</span>, not x@Ann or @Annie</p>',
    );
    // what the server keeps after sanitizing and reads back
    expect(mentionedUserIds(sanitizeHtmlBody(html))).toEqual(["u2", "u1"]);
    expect(withMentions("<p>@O&amp;Brien</p>", { "O&Brien": "u3" })).toBe(
      '<p><span data-mention="u3">@O&amp;Brien</span></p>',
    );
    expect(withMentions("<p>hi</p>", {})).toBe("<p>hi</p>");
  });

  test("the token before the caret", () => {
    expect(MENTION_TOKEN.exec("hello @an")?.[2]).toBe("an");
    expect(MENTION_TOKEN.exec("@")?.[2]).toBe("");
    expect(MENTION_TOKEN.exec("mail@an")).toBeNull();
  });
});
