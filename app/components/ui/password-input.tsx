import { Eye, EyeOff } from "lucide-react";
import { useState } from "react";
import type { ComponentProps } from "react";
import { inputClass } from "./field";

/** A password input with a show/hide toggle. */
export function PasswordInput({
  className = "",
  toggleFor = "password",
  ...props
}: Omit<ComponentProps<"input">, "type"> & { toggleFor?: string }) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <input type={visible ? "text" : "password"} className={`${inputClass} border-line pr-12 ${className}`} {...props} />
      <button
        type="button"
        onClick={() => setVisible((v) => !v)}
        className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-lg text-ink-muted hover:text-ink"
        aria-label={`${visible ? "Hide" : "Show"} ${toggleFor}`}
        aria-pressed={visible}
      >
        {visible ? <EyeOff className="size-5" aria-hidden="true" /> : <Eye className="size-5" aria-hidden="true" />}
      </button>
    </div>
  );
}
