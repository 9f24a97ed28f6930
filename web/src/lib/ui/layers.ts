import { useEffect, useRef } from "react";

/**
 * Esc closes the topmost open layer (dialog, picker, menu, suggestion list) and nothing else.
 * Layers register here; one capture-phase listener closes the newest and marks the key handled
 * (`defaultPrevented`), so page shortcuts such as "Esc: back to the list" leave it alone.
 */
const stack: Array<{ close: () => void }> = [];

window.addEventListener(
  "keydown",
  (e) => {
    if (e.key !== "Escape" || e.defaultPrevented || stack.length === 0) return;
    e.preventDefault();
    stack[stack.length - 1].close();
  },
  true,
);

/** While `open`, this component is a layer that Esc closes with `close`. */
export function useDismiss(close: () => void, open = true): void {
  const latest = useRef(close);
  latest.current = close;
  useEffect(() => {
    if (!open) return;
    const layer = { close: () => latest.current() };
    stack.push(layer);
    return () => {
      const index = stack.indexOf(layer);
      if (index >= 0) stack.splice(index, 1);
    };
  }, [open]);
}
