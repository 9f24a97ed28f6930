/**
 * Small inline SVG icons for markers that emoji glyphs used to draw: emoji differ per platform,
 * some fonts lack them, and screen readers read their names. Each is decorative (aria-hidden):
 * the text beside it, or its holder's label, says what it means.
 */

const box = { width: 14, height: 14, viewBox: "0 0 16 16", focusable: false } as const;

export function PaperclipIcon() {
  return (
    <svg {...box} className="icon" aria-hidden="true">
      <path
        d="M10.5 4.5 5.6 9.4a1.4 1.4 0 0 0 2 2l5-5a2.8 2.8 0 0 0-4-4l-5.2 5.2a4.2 4.2 0 0 0 6 6l4.1-4.1"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.4"
        strokeLinecap="round"
      />
    </svg>
  );
}

export function DocumentIcon() {
  return (
    <svg {...box} className="icon" aria-hidden="true">
      <path d="M4 1.5h5.5L13 5v9.5H4z M9.5 1.5V5H13" fill="none" stroke="currentColor" strokeWidth="1.4" />
    </svg>
  );
}

const LEVELS = { low: 1, normal: 2, high: 3, urgent: 4 } as const;

/** Four rising bars, as many filled as the priority is high. */
export function PriorityBars({ priority }: { priority: keyof typeof LEVELS }) {
  const level = LEVELS[priority];
  return (
    <svg {...box} className="icon" aria-hidden="true">
      {[0, 1, 2, 3].map((i) => (
        <rect
          key={i}
          x={1 + i * 3.75}
          y={12 - i * 3}
          width="2.75"
          height={3 + i * 3}
          rx="0.5"
          fill="currentColor"
          opacity={i < level ? 1 : 0.25}
        />
      ))}
    </svg>
  );
}
