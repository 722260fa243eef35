import { Search } from "lucide-react";
import type { ComponentProps } from "react";
import { Input } from "~/components/ui/field";

/**
 * The field of the panel's client search (name, e-mail, client ID, assignee), with its
 * magnifier: the client list and the audit trail's filter use the same search.
 */
export function ClientSearchInput(props: Omit<ComponentProps<"input">, "type" | "className">) {
  return (
    <div className="relative">
      <Search
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-ink-muted"
        aria-hidden="true"
      />
      <Input
        type="search"
        maxLength={100}
        autoComplete="off"
        spellCheck={false}
        className="pl-9"
        {...props}
      />
    </div>
  );
}
