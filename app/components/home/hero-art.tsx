import { FileText, Globe, IdCard } from "lucide-react";
import type { HeroArt as HeroArtKind, HeroSlide } from "~/content/home";
import { fbarFacts, formatUsd } from "~/content/tax-facts";

type ArtProps = { accent: HeroSlide["accent"] };

const paper = "#ffffff";
const line = "#d5dce8";
const ink = "#0f1b33";

/** 1040 / 1040-NR: stacked returns, a tax calendar and a check mark. */
function ReturnsArt({ accent }: ArtProps) {
  return (
    <>
      <rect
        x="150"
        y="28"
        width="196"
        height="246"
        rx="16"
        fill={paper}
        fillOpacity="0.14"
        stroke={accent.tint}
        strokeOpacity="0.6"
        strokeWidth="2"
      />
      <g transform="rotate(-4 190 190)">
        <rect x="84" y="60" width="206" height="256" rx="16" fill={paper} />
        <rect x="84" y="60" width="206" height="52" rx="16" fill={accent.tint} />
        <rect x="84" y="96" width="206" height="16" fill={accent.tint} />
        <text
          x="104"
          y="94"
          fontFamily="ui-sans-serif, system-ui, sans-serif"
          fontSize="22"
          fontWeight="700"
          fill={ink}
        >
          1040-NR
        </text>
        {[132, 154, 176, 198, 220].map((y, i) => (
          <rect key={y} x="104" y={y} width={i % 2 ? 120 : 166} height="9" rx="4.5" fill={line} />
        ))}
        <rect
          x="104"
          y="250"
          width="90"
          height="34"
          rx="8"
          fill={accent.base}
          fillOpacity="0.12"
          stroke={accent.base}
          strokeWidth="2"
        />
        <path
          d="M114 268 q10 -14 18 -2 t18 -4 t16 2"
          fill="none"
          stroke={accent.base}
          strokeWidth="2.5"
          strokeLinecap="round"
        />
      </g>
      <g transform="translate(268 196)">
        <rect width="122" height="112" rx="14" fill={paper} />
        <rect width="122" height="34" rx="14" fill={accent.base} />
        <rect y="20" width="122" height="14" fill={accent.base} />
        <text
          x="61"
          y="24"
          textAnchor="middle"
          fontFamily="ui-sans-serif, system-ui, sans-serif"
          fontSize="15"
          fontWeight="700"
          fill={paper}
        >
          APR
        </text>
        <text
          x="61"
          y="88"
          textAnchor="middle"
          fontFamily="ui-sans-serif, system-ui, sans-serif"
          fontSize="42"
          fontWeight="800"
          fill={ink}
        >
          15
        </text>
      </g>
      <circle cx="300" cy="70" r="30" fill={accent.tint} />
      <path
        d="M286 70 l10 10 l19 -21"
        fill="none"
        stroke={ink}
        strokeWidth="6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </>
  );
}

/** ITIN: a passport, an ID card with Form W-7 and a stamp. */
function ItinArt({ accent }: ArtProps) {
  return (
    <>
      <g transform="rotate(-6 150 170)">
        <rect
          x="60"
          y="44"
          width="176"
          height="250"
          rx="18"
          fill={ink}
          stroke={accent.tint}
          strokeWidth="3"
        />
        <circle cx="148" cy="170" r="46" fill="none" stroke={accent.tint} strokeWidth="3" />
        <ellipse cx="148" cy="170" rx="20" ry="46" fill="none" stroke={accent.tint} strokeWidth="2.5" />
        <path d="M102 170 h92 M110 146 h76 M110 194 h76" stroke={accent.tint} strokeWidth="2.5" />
        <text
          x="148"
          y="98"
          textAnchor="middle"
          fontFamily="ui-sans-serif, system-ui, sans-serif"
          fontSize="18"
          fontWeight="700"
          letterSpacing="3"
          fill={accent.tint}
        >
          PASSPORT
        </text>
      </g>
      <g transform="translate(186 168)">
        <rect width="210" height="132" rx="16" fill={paper} />
        <rect width="210" height="36" rx="16" fill={accent.tint} />
        <rect y="20" width="210" height="16" fill={accent.tint} />
        <text
          x="18"
          y="26"
          fontFamily="ui-sans-serif, system-ui, sans-serif"
          fontSize="16"
          fontWeight="700"
          fill={ink}
        >
          FORM W-7
        </text>
        <rect x="18" y="50" width="56" height="64" rx="10" fill={accent.base} fillOpacity="0.15" />
        <circle cx="46" cy="72" r="12" fill={accent.base} />
        <path d="M26 110 q20 -26 40 0" fill={accent.base} />
        {[56, 76, 96].map((y, i) => (
          <rect key={y} x="90" y={y} width={i === 1 ? 70 : 100} height="9" rx="4.5" fill={line} />
        ))}
      </g>
      <g transform="translate(318 78)">
        <circle r="44" fill="none" stroke={accent.tint} strokeWidth="3" strokeDasharray="6 6" />
        <circle r="32" fill={accent.tint} fillOpacity="0.2" />
        <text
          y="7"
          textAnchor="middle"
          fontFamily="ui-sans-serif, system-ui, sans-serif"
          fontSize="20"
          fontWeight="800"
          fill={accent.tint}
        >
          ITIN
        </text>
      </g>
    </>
  );
}

/** FBAR / FATCA: a globe, a bank and a shield. */
function FbarArt({ accent }: ArtProps) {
  return (
    <>
      <g transform="translate(170 160)">
        <circle r="124" fill={paper} fillOpacity="0.08" stroke={accent.tint} strokeWidth="3" />
        <ellipse rx="52" ry="124" fill="none" stroke={accent.tint} strokeOpacity="0.8" strokeWidth="2.5" />
        <ellipse rx="96" ry="124" fill="none" stroke={accent.tint} strokeOpacity="0.5" strokeWidth="2" />
        <path
          d="M-124 0 H124 M-110 -58 H110 M-110 58 H110"
          stroke={accent.tint}
          strokeOpacity="0.7"
          strokeWidth="2"
        />
        <path d="M0 -124 V124" stroke={accent.tint} strokeOpacity="0.8" strokeWidth="2.5" />
      </g>
      <g transform="translate(38 214)">
        <rect width="112" height="92" rx="12" fill={paper} />
        <path d="M12 36 L56 12 L100 36 Z" fill={accent.base} />
        {[22, 46, 70].map((x) => (
          <rect key={x} x={x} y="42" width="14" height="32" rx="3" fill={accent.base} fillOpacity="0.75" />
        ))}
        <rect x="12" y="78" width="88" height="6" rx="3" fill={accent.base} />
      </g>
      <g transform="translate(286 176)">
        <path d="M56 0 L108 20 V62 C108 100 84 124 56 136 C28 124 4 100 4 62 V20 Z" fill={accent.tint} />
        <path
          d="M34 66 l16 16 l30 -32"
          fill="none"
          stroke={ink}
          strokeWidth="9"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </g>
      <g transform="translate(262 32)">
        <rect width="128" height="44" rx="22" fill={paper} />
        <text
          x="64"
          y="29"
          textAnchor="middle"
          fontFamily="ui-sans-serif, system-ui, sans-serif"
          fontSize="18"
          fontWeight="800"
          fill={ink}
        >
          {`${formatUsd(fbarFacts.threshold)}+`}
        </text>
      </g>
    </>
  );
}

const artByKind = { returns: ReturnsArt, itin: ItinArt, fbar: FbarArt } as const;
const iconByKind = { returns: FileText, itin: IdCard, fbar: Globe } as const;

/** The slide's illustration (decorative: the slide's text says the same). */
export function HeroArt({ kind, accent }: { kind: HeroArtKind; accent: HeroSlide["accent"] }) {
  const Art = artByKind[kind];
  return (
    <svg viewBox="0 0 420 340" className="h-auto w-full drop-shadow-xl" aria-hidden="true" focusable="false">
      <Art accent={accent} />
    </svg>
  );
}

/** What a slide shows when its background picture fails to load: its icon on the same gradient. */
export function HeroFallbackIcon({ kind, accent }: { kind: HeroArtKind; accent: HeroSlide["accent"] }) {
  const Icon = iconByKind[kind];
  return (
    <div
      className="flex size-14 items-center justify-center rounded-full border-2 bg-white/10 sm:size-20"
      style={{ borderColor: accent.tint, color: accent.tint }}
      data-hero-fallback-icon={kind}
    >
      <Icon className="size-7 sm:size-10" strokeWidth={1.5} />
    </div>
  );
}

/** The slide background: a gradient from ink to the slide's accent colour. */
export function heroGradient(accent: HeroSlide["accent"]): string {
  return `radial-gradient(circle at 85% 15%, ${accent.tint}33 0%, transparent 45%), linear-gradient(135deg, var(--color-ink) 0%, var(--color-ink) 35%, ${accent.base} 100%)`;
}
