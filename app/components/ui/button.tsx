import type { ComponentProps, ReactNode } from "react";
import { Link } from "react-router";
import { Spinner } from "./spinner";

type Variant = "primary" | "secondary" | "ghost" | "accent" | "inverse";
type Size = "md" | "lg" | "sm";

const base =
  "inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-70 whitespace-nowrap";
const variants: Record<Variant, string> = {
  primary: "bg-primary-600 text-white hover:bg-primary-700 shadow-sm",
  secondary: "border border-primary-600 bg-white text-primary-700 hover:bg-primary-50",
  ghost: "text-primary-700 hover:bg-primary-50",
  accent: "bg-accent-500 text-ink hover:bg-accent-100 shadow-sm",
  inverse: "bg-white text-ink hover:bg-primary-50 shadow-sm",
};
const sizes: Record<Size, string> = {
  sm: "px-3 py-1.5 text-sm",
  md: "px-5 py-2.5 text-sm",
  lg: "px-6 py-3 text-base",
};

export function buttonClass(variant: Variant = "primary", size: Size = "md", extra = ""): string {
  return `${base} ${variants[variant]} ${sizes[size]} ${extra}`.trim();
}

type ButtonProps = ComponentProps<"button"> & {
  variant?: Variant;
  size?: Size;
  /** Shows a spinner before the label (the label itself is the busy text). */
  busy?: boolean;
};

export function Button({ variant, size, busy, className = "", children, ...props }: ButtonProps) {
  return (
    <button className={buttonClass(variant, size, className)} {...props}>
      {busy ? <Spinner className="size-4" /> : null}
      {children}
    </button>
  );
}

type ButtonLinkProps = ComponentProps<typeof Link> & { variant?: Variant; size?: Size; children: ReactNode };

export function ButtonLink({ variant, size, className = "", ...props }: ButtonLinkProps) {
  return <Link className={buttonClass(variant, size, className)} {...props} />;
}

type ButtonAnchorProps = ComponentProps<"a"> & { variant?: Variant; size?: Size };

/** For links that leave the app (tel:, WhatsApp, mailto:). */
export function ButtonAnchor({ variant, size, className = "", ...props }: ButtonAnchorProps) {
  return <a className={buttonClass(variant, size, className)} {...props} />;
}
