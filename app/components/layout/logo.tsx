import { business } from "~/content/business";

/** The word mark: a small bridge arc and the firm's name. */
export function Logo({ inverse = false, className = "" }: { inverse?: boolean; className?: string }) {
  return (
    <span className={`inline-flex items-center gap-2 ${className}`}>
      <svg viewBox="0 0 32 32" className="h-7 w-7 shrink-0" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill={inverse ? "#ffffff" : "#0f1b33"} />
        <path
          d="M5 21c3.5-7 7-10 11-10s7.5 3 11 10"
          fill="none"
          stroke={inverse ? "#0b6a88" : "#5fc3df"}
          strokeWidth="2.6"
          strokeLinecap="round"
        />
        <path
          d="M5 23h22M10 23v-5.5M16 23v-8M22 23v-5.5"
          stroke={inverse ? "#0f1b33" : "#ffffff"}
          strokeWidth="2"
          strokeLinecap="round"
        />
      </svg>
      <span className={`text-xl font-bold tracking-tight ${inverse ? "text-white" : "text-ink"}`}>
        {business.name}
      </span>
    </span>
  );
}
