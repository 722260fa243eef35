/**
 * The About page's hero art: a globe and a tax form joined by a bridge arc. Pure SVG in the
 * theme's colours (no photos); decorative, so hidden from assistive technology.
 */
export function AboutIllustration({ className = "" }: { className?: string }) {
  return (
    <svg viewBox="0 0 400 320" className={className} aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="about-globe" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="var(--color-primary-500)" />
          <stop offset="1" stopColor="var(--color-primary-800)" />
        </linearGradient>
        <linearGradient id="about-sky" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="var(--color-primary-100)" />
          <stop offset="1" stopColor="var(--color-primary-50)" />
        </linearGradient>
      </defs>

      <rect x="8" y="8" width="384" height="304" rx="28" fill="url(#about-sky)" />

      {/* Globe */}
      <g transform="translate(118 150)">
        <circle r="78" fill="url(#about-globe)" />
        <g fill="none" stroke="#ffffff" strokeOpacity="0.45" strokeWidth="2">
          <ellipse rx="78" ry="28" />
          <ellipse rx="78" ry="58" />
          <ellipse rx="30" ry="78" />
          <ellipse rx="58" ry="78" />
          <path d="M-78 0h156M0-78v156" />
        </g>
      </g>

      {/* Bridge arc from the globe to the form */}
      <path
        d="M150 250c30-70 80-100 130-100"
        fill="none"
        stroke="var(--color-accent-500)"
        strokeWidth="6"
        strokeLinecap="round"
        strokeDasharray="2 12"
      />

      {/* Tax form */}
      <g transform="translate(238 60)">
        <rect width="124" height="160" rx="12" fill="#ffffff" stroke="var(--color-line)" strokeWidth="2" />
        <rect x="16" y="18" width="56" height="10" rx="5" fill="var(--color-ink)" />
        <rect x="16" y="40" width="92" height="6" rx="3" fill="var(--color-line)" />
        <rect x="16" y="54" width="80" height="6" rx="3" fill="var(--color-line)" />
        <rect x="16" y="68" width="92" height="6" rx="3" fill="var(--color-line)" />
        <rect x="16" y="90" width="40" height="22" rx="4" fill="var(--color-primary-50)" stroke="var(--color-primary-200)" />
        <rect x="64" y="90" width="44" height="22" rx="4" fill="var(--color-primary-50)" stroke="var(--color-primary-200)" />
        <circle cx="94" cy="136" r="14" fill="var(--color-primary-600)" />
        <path
          d="M87 136l5 5 9-10"
          fill="none"
          stroke="#ffffff"
          strokeWidth="3"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </g>

      {/* Shield */}
      <g transform="translate(300 214)">
        <path
          d="M30 0l28 10v22c0 20-12 34-28 42C14 66 2 52 2 32V10z"
          fill="var(--color-ink)"
        />
        <path
          d="M19 35l8 8 14-16"
          fill="none"
          stroke="var(--color-accent-500)"
          strokeWidth="4"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </g>
    </svg>
  );
}
