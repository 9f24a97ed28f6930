import { useQuery } from "@tanstack/react-query";
import { api } from "../lib/api/client";
import type { VisitorInfo } from "../lib/api/types";
import { contactKeys } from "./contacts.queries";
import { t } from "../lib/i18n/i18n";

/** What the chat widget last reported about the contact's visit; nothing for a contact who never chatted. */
export function useVisit(contactId: string, enabled: boolean) {
  return useQuery({
    queryKey: contactKeys.visit(contactId),
    queryFn: () => api<VisitorInfo>(`/widget/visitors/${contactId}`),
    enabled,
    retry: false,
    staleTime: 60_000,
  });
}

/**
 * The page, browser and time zone of the visitor's chat, as text: they are the visitor's own word
 * (React escapes them), so the page address is shown, never made a link.
 */
export function VisitDetails({ contactId, enabled }: { contactId: string; enabled: boolean }) {
  const visit = useVisit(contactId, enabled);
  if (!visit.data) return null;
  const { page_url, browser, time_zone } = visit.data;
  if (!page_url && !browser && !time_zone) return null;
  return (
    <dl className="visit-details small" aria-label={t("contacts.chatVisit")}>
      {page_url && (
        <>
          <dt>{t("contacts.visitPage")}</dt>
          <dd className="visit-page" title={page_url}>
            {page_url}
          </dd>
        </>
      )}
      {browser && (
        <>
          <dt>{t("contacts.visitBrowser")}</dt>
          <dd>{browser}</dd>
        </>
      )}
      {time_zone && (
        <>
          <dt>{t("contacts.visitTimeZone")}</dt>
          <dd>{time_zone}</dd>
        </>
      )}
    </dl>
  );
}
