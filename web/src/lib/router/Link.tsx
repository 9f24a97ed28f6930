import type { ReactNode } from "react";
import { linkHandler } from "./router";

export function Link({
  to,
  children,
  className,
  title,
}: {
  to: string;
  children: ReactNode;
  className?: string;
  title?: string;
}) {
  return (
    <a href={to} onClick={linkHandler(to)} className={className} title={title}>
      {children}
    </a>
  );
}
