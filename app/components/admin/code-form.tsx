import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Alert, Field, Input } from "~/components/ui/field";

/** The form that asks for an authenticator (or backup) code. */
export function CodeForm({ error, busy, redirectTo, allowBackup }: { error?: string; busy: boolean; redirectTo?: string; allowBackup: boolean }) {
  // Once the code is right, the staff page replaces this one in the history.
  return (
    <Form method="post" replace className="space-y-4">
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      <Field
        id="second-factor-code"
        label={allowBackup ? "Authenticator code or backup code" : "Authenticator code"}
        required
        hint={allowBackup ? "The 6-digit code from your app, or one of your backup codes." : "The 6-digit code your app shows now."}
      >
        {(aria) => <Input {...aria} name="code" autoComplete="one-time-code" inputMode={allowBackup ? "text" : "numeric"} required autoFocus />}
      </Field>
      <Button type="submit" size="lg" className="w-full" disabled={busy} busy={busy}>
        {busy ? "Checking..." : "Verify"}
      </Button>
    </Form>
  );
}
