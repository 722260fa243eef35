import type { CardBrand } from "~/content/home";

const font = "ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

/** Simple drawn marks for the accepted cards (not the brands' official artwork). */
function Mark({ brand }: { brand: CardBrand }) {
  switch (brand) {
    case "visa":
      return (
        <>
          <rect width="64" height="40" rx="6" fill="#1a1f71" />
          <text
            x="32"
            y="26"
            textAnchor="middle"
            fontFamily={font}
            fontSize="16"
            fontStyle="italic"
            fontWeight="800"
            fill="#ffffff"
          >
            VISA
          </text>
          <rect x="8" y="31" width="48" height="3" rx="1.5" fill="#f7b600" />
        </>
      );
    case "mastercard":
      return (
        <>
          <rect x="0.5" y="0.5" width="63" height="39" rx="5.5" fill="#ffffff" stroke="#c9d1dd" />
          <circle cx="26" cy="20" r="11" fill="#eb001b" />
          <circle cx="38" cy="20" r="11" fill="#f79e1b" />
          <path d="M32 10.8 a11 11 0 0 1 0 18.4 a11 11 0 0 1 0 -18.4 Z" fill="#ff5f00" />
        </>
      );
    case "amex":
      return (
        <>
          <rect width="64" height="40" rx="6" fill="#016fd0" />
          <rect x="5" y="11" width="54" height="18" rx="2" fill="none" stroke="#ffffff" strokeWidth="1.5" />
          <text
            x="32"
            y="25"
            textAnchor="middle"
            fontFamily={font}
            fontSize="12"
            fontWeight="800"
            letterSpacing="1"
            fill="#ffffff"
          >
            AMEX
          </text>
        </>
      );
    case "rupay":
      return (
        <>
          <rect x="0.5" y="0.5" width="63" height="39" rx="5.5" fill="#ffffff" stroke="#c9d1dd" />
          <text
            x="26"
            y="25"
            textAnchor="middle"
            fontFamily={font}
            fontSize="13"
            fontStyle="italic"
            fontWeight="800"
            fill="#1b3a7a"
          >
            RuPay
          </text>
          <path d="M49 13 l6 7 l-6 7 Z" fill="#f47920" />
          <path d="M54 13 l6 7 l-6 7 Z" fill="#0e8a45" />
        </>
      );
  }
}

export function CardLogo({ brand, name }: { brand: CardBrand; name: string }) {
  return (
    <svg viewBox="0 0 64 40" className="h-10 w-16" role="img" aria-label={name}>
      <Mark brand={brand} />
    </svg>
  );
}
