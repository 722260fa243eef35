import { UserPlus } from "lucide-react";
import { useEffect, useRef } from "react";
import { Form, useNavigation } from "react-router";
import { Select } from "~/components/portal/select-field";
import { Button } from "~/components/ui/button";
import { Alert, Field, Input } from "~/components/ui/field";
import { Modal } from "~/components/ui/modal";
import { ADD_CLIENT_MESSAGES } from "~/domain/admin";
import { VISA_STATUSES } from "~/domain/auth";

/** What the "add-client" action answers. `field` names the input the error belongs to. */
export type AddClientResult =
  | { ok: true; email: string; again?: true }
  | { ok: false; error: string; field?: string }
  | undefined;

export type AddClientModalProps = {
  open: boolean;
  onClose: () => void;
  result: AddClientResult;
};

const FIELDS = {
  name: "add-client-name",
  email: "add-client-email",
  phone: "add-client-phone",
  visaStatus: "add-client-visa",
} as const;
type AddClientField = keyof typeof FIELDS;

/** The action may name the field as the form does, or as the sign-up schema does (fullName). */
function fieldOf(field: string | undefined): AddClientField | null {
  if (field === "fullName") return "name";
  return field && field in FIELDS ? (field as AddClientField) : null;
}

/**
 * Add New Client: creates the account and e-mails an invitation to set a password
 * (docs/product/workflow.md#client-list). The form posts intent=add-client to the current route.
 */
export function AddClientModal({ open, onClose, result }: AddClientModalProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "add-client";

  const failed = result && !result.ok ? result : null;
  const errorField = failed ? fieldOf(failed.field) : null;
  const errorFor = (f: AddClientField) => (errorField === f ? failed?.error : undefined);

  useEffect(() => {
    if (!result) return;
    if (result.ok) {
      formRef.current?.reset();
      return;
    }
    const field = fieldOf(result.field);
    if (field) document.getElementById(FIELDS[field])?.focus();
  }, [result]);

  return (
    <Modal
      open={open}
      onClose={onClose}
      labelledBy="add-client-title"
      describedBy="add-client-lead"
      className="max-w-lg"
    >
      <div className="flex items-start gap-3">
        <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-primary-50 text-primary-700">
          <UserPlus className="size-5" aria-hidden="true" />
        </span>
        <div>
          <h2 id="add-client-title" className="text-xl font-bold text-ink">
            Add New Client
          </h2>
          <p id="add-client-lead" className="mt-1 text-sm text-ink-soft">
            We create the client&apos;s account and e-mail them an invitation to set their own password.
          </p>
        </div>
      </div>

      <div className="mt-5 space-y-4">
        {result?.ok ? <Alert tone="success">{ADD_CLIENT_MESSAGES.sent(result.email, result.again === true)}</Alert> : null}
        {failed && !errorField ? <Alert tone="error">{failed.error}</Alert> : null}

        <Form ref={formRef} method="post" noValidate className="space-y-4">
          <input type="hidden" name="intent" value="add-client" />
          <Field id={FIELDS.name} label="Full Name" required error={errorFor("name")}>
            {(aria) => <Input {...aria} name="name" autoComplete="off" maxLength={100} />}
          </Field>
          <Field id={FIELDS.email} label="Email Address" required error={errorFor("email")}>
            {(aria) => (
              <Input
                {...aria}
                name="email"
                type="email"
                autoComplete="off"
                spellCheck={false}
                maxLength={254}
              />
            )}
          </Field>
          <Field id={FIELDS.phone} label="Phone Number (Optional)" error={errorFor("phone")}>
            {(aria) => <Input {...aria} name="phone" type="tel" autoComplete="off" maxLength={20} />}
          </Field>
          <Field id={FIELDS.visaStatus} label="Visa/Status" required error={errorFor("visaStatus")}>
            {(aria) => (
              <Select {...aria} name="visaStatus" defaultValue="">
                <option value="">Select visa status</option>
                {VISA_STATUSES.map((v) => (
                  <option key={v} value={v}>
                    {v}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy} busy={busy} aria-busy={busy}>
              Create and send invitation
            </Button>
          </div>
        </Form>
      </div>
    </Modal>
  );
}
