import { freshdeskSource } from "./imports.freshdesk";
import { helpScoutSource } from "./imports.helpscout";
import { imapSource, type ImapSourceConfig } from "./imports.imap";
import type { CreateImportInput } from "./imports.schemas";
import type { ImportSource } from "./imports.source";
import { zendeskSource } from "./imports.zendesk";

/** The source a run's options name (one file per source). */
export function sourceFor(input: CreateImportInput, config: ImapSourceConfig): ImportSource {
  const allowList = config.allowedPrivateHosts;
  switch (input.source) {
    case "zendesk":
      return zendeskSource(input.options, allowList);
    case "freshdesk":
      return freshdeskSource(input.options, allowList);
    case "helpscout":
      return helpScoutSource(input.options, allowList);
    case "imap":
      return imapSource(input.options, config);
  }
}

/** The account at the source: re-runs of one account share their mappings and resume from its cursors. */
export function accountOf(input: CreateImportInput): string {
  switch (input.source) {
    case "zendesk":
      return input.options.subdomain;
    case "freshdesk":
      return input.options.domain;
    case "helpscout":
      return input.options.app_id;
    case "imap":
      return `${input.options.username.toLowerCase()}@${input.options.host.toLowerCase()}`;
  }
}
