import { Fragment, type ReactNode, useEffect, useState } from "react";
import { activateLocale, activeLocale, directionOf, type Locale } from "../lib/i18n/i18n";
import { Loading } from "../lib/ui/states";

/**
 * Activations run one after another, so the language asked for last is the one that stays active
 * even when an earlier catalogue (the browser's, on the sign-in page) arrives after a later one.
 */
let queue: Promise<unknown> = Promise.resolve();

function activateInTurn(locale: Locale, memberTag: string | null): Promise<void> {
  const next = queue.then(() =>
    // A catalogue that fails to load (a deploy replaced the chunk) leaves the member reading English
    // in their language's direction rather than an app stuck loading.
    activateLocale(locale, memberTag).catch(() => activateLocale("en", memberTag)),
  );
  queue = next.catch(() => {});
  return next;
}

const isActive = (locale: Locale, memberTag: string | null) =>
  activeLocale() === locale &&
  (typeof document === "undefined" ||
    (document.documentElement.lang === locale &&
      // A page without dir reads left to right: the first English paint needs no loading state.
      (document.documentElement.dir || "ltr") === directionOf(memberTag || locale)));

/**
 * Renders `children` in `locale` once its catalogue is active, with the Loading state before (no
 * flash of English when the language is known), and remounts them when the language or direction
 * changes: `t` reads the active catalogue during render, so a new language needs a new render of
 * everything, including memoised parts.
 */
export function InLocale({
  locale,
  memberTag = null,
  children,
}: {
  locale: Locale;
  memberTag?: string | null;
  children: ReactNode;
}) {
  const wanted = `${locale}|${directionOf(memberTag || locale)}`;
  const [ready, setReady] = useState<string | null>(() => (isActive(locale, memberTag) ? wanted : null));
  useEffect(() => {
    let current = true;
    activateInTurn(locale, memberTag).then(() => {
      if (current) setReady(wanted);
    });
    return () => {
      current = false;
    };
  }, [locale, memberTag, wanted]);
  if (ready !== wanted) return <Loading />;
  return <Fragment key={wanted}>{children}</Fragment>;
}
