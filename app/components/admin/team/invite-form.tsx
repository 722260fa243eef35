import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Field, Input, inputClass } from "~/components/ui/field";
import { STAFF_ROLES } from "~/domain/policy";
import { STAFF_ROLE_LABELS } from "~/domain/team";

export type InviteFormProps = {
  /** Each field's message after a refused invitation. */
  errors?: Partial<Record<"fullName" | "email" | "role", string>>;
  /** What was typed, kept after a refusal. */
  values?: { fullName?: string; email?: string; role?: string };
};

/** Invite a staff member: full name, e-mail and role. */
export function InviteForm({ errors = {}, values = {} }: InviteFormProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "invite";
  return (
    <Form
      method="post"
      noValidate
      className="rounded-[var(--radius-card)] border border-line bg-white p-5 shadow-card sm:p-6"
      aria-labelledby="invite-title"
    >
      <h2 id="invite-title" className="text-lg font-semibold text-ink">
        Invite a staff member
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        They get an e-mail with a link to choose a password, then set up their second factor.
      </p>
      <input type="hidden" name="intent" value="invite" />
      <div className="mt-4 grid gap-4 sm:grid-cols-3">
        <Field id="invite-fullName" label="Full name" required error={errors.fullName}>
          {(aria) => (
            <Input
              {...aria}
              name="fullName"
              autoComplete="off"
              defaultValue={values.fullName ?? ""}
              maxLength={100}
            />
          )}
        </Field>
        <Field id="invite-email" label="E-mail" required error={errors.email}>
          {(aria) => (
            <Input {...aria} name="email" type="email" autoComplete="off" defaultValue={values.email ?? ""} />
          )}
        </Field>
        <Field id="invite-role" label="Role" required error={errors.role}>
          {(aria) => (
            <select
              {...aria}
              name="role"
              defaultValue={values.role ?? "preparer"}
              className={`${inputClass} border-line`}
            >
              {STAFF_ROLES.map((role) => (
                <option key={role} value={role}>
                  {STAFF_ROLE_LABELS[role]}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <p className="mt-3 text-sm text-ink-muted">
        Admins can do everything. Preparers work on cases, requests and messages to clients.
      </p>
      <div className="mt-4">
        <Button type="submit" busy={busy} disabled={busy}>
          {busy ? "Sending invitation..." : "Send invitation"}
        </Button>
      </div>
    </Form>
  );
}
