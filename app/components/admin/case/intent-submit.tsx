import type { ReactNode } from "react";
import { useNavigation } from "react-router";
import { Button } from "~/components/ui/button";

/**
 * A case section form's submit button, busy while its own form is posting: the same `intent`
 * (and, for a button among several of one form, the same `name` and `value`).
 */
export function IntentSubmit({
  intent,
  children,
  variant,
  name,
  value,
  className = "min-h-11 sm:min-h-0",
}: {
  intent: string;
  children: ReactNode;
  variant?: "primary" | "secondary" | "ghost";
  name?: string;
  value?: string;
  className?: string;
}) {
  const navigation = useNavigation();
  const busy =
    navigation.state !== "idle" &&
    navigation.formData?.get("intent") === intent &&
    (name === undefined || navigation.formData?.get(name) === value);
  return (
    <Button type="submit" name={name} value={value} variant={variant} className={className} disabled={busy} busy={busy} aria-busy={busy}>
      {children}
    </Button>
  );
}
