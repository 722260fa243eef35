import { ChevronDown } from "lucide-react";
import type { ComponentProps } from "react";
import { inputClass } from "~/components/ui/field";

/** A native <select> styled like the other inputs, with a chevron drawn over its right edge. */
export function Select({ className = "", children, ...props }: ComponentProps<"select">) {
  return (
    <div className="relative">
      <select
        className={`${inputClass} cursor-pointer appearance-none border-line pr-10 ${className}`}
        {...props}
      >
        {children}
      </select>
      <ChevronDown
        className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-ink-muted"
        aria-hidden="true"
      />
    </div>
  );
}
