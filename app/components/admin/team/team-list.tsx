import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { LocalTime } from "~/components/ui/local-time";
import { STAFF_ROLE_LABELS } from "~/domain/team";
import type { TeamMember } from "~/domain/team";

export type TeamListProps = {
  members: readonly TeamMember[];
  /** The signed-in admin: no deactivation or reset of their own account. */
  meId: string;
};

function Badge({ tone, children }: { tone: "green" | "amber" | "grey"; children: string }) {
  const styles = {
    green: "border-green-200 bg-green-50 text-green-800",
    amber: "border-accent-100 bg-accent-50 text-accent-700",
    grey: "border-line bg-surface text-ink-soft",
  } as const;
  return (
    <span
      className={`inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold ${styles[tone]}`}
    >
      {children}
    </span>
  );
}

function ActionButton({
  intent,
  member,
  label,
  busyLabel,
  confirm,
  fields = {},
}: {
  intent: string;
  member: TeamMember;
  label: string;
  busyLabel: string;
  confirm: string;
  /** More hidden fields the form sends. */
  fields?: Record<string, string>;
}) {
  const navigation = useNavigation();
  const busy =
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === intent &&
    navigation.formData.get("userId") === member.id;
  return (
    <Form
      method="post"
      onSubmit={(event) => {
        if (!window.confirm(confirm)) event.preventDefault();
      }}
    >
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="userId" value={member.id} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button
        type="submit"
        variant="secondary"
        size="sm"
        busy={busy}
        disabled={busy}
        aria-label={`${label}: ${member.name}`}
      >
        {busy ? busyLabel : label}
      </Button>
    </Form>
  );
}

/** Every staff account, with what an admin may do to each. */
export function TeamList({ members, meId }: TeamListProps) {
  if (members.length === 0) {
    return (
      <p className="rounded-[var(--radius-card)] border border-line bg-white px-5 py-10 text-center text-ink-soft shadow-card">
        No staff yet.
      </p>
    );
  }
  return (
    // Positioned, so the visually hidden texts inside (absolutely placed) stay in the scroll box
    // instead of widening the page on a phone.
    <div className="relative overflow-x-auto rounded-[var(--radius-card)] border border-line bg-white shadow-card">
      <table className="w-full min-w-[64rem] text-left text-sm">
        <caption className="sr-only">Staff accounts</caption>
        <thead className="border-b border-line bg-surface text-xs font-semibold tracking-wide text-ink-muted uppercase">
          <tr>
            <th scope="col" className="px-4 py-3">
              Name
            </th>
            <th scope="col" className="px-4 py-3">
              Role
            </th>
            <th scope="col" className="px-4 py-3">
              Last sign-in
            </th>
            <th scope="col" className="px-4 py-3">
              Second factor
            </th>
            <th scope="col" className="px-4 py-3">
              Status
            </th>
            <th scope="col" className="px-4 py-3">
              Works from
            </th>
            <th scope="col" className="px-4 py-3">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {members.map((m) => {
            const me = m.id === meId;
            return (
              <tr key={m.id} data-testid="team-member" data-email={m.email}>
                <th scope="row" className="px-4 py-3 font-normal">
                  <span className="block font-semibold text-ink">
                    {m.name}
                    {me ? <span className="font-normal text-ink-muted"> (you)</span> : null}
                  </span>
                  <span className="block break-all text-ink-soft">{m.email}</span>
                </th>
                <td className="px-4 py-3">{STAFF_ROLE_LABELS[m.role]}</td>
                <td className="px-4 py-3">{m.lastSignInAt ? <LocalTime iso={m.lastSignInAt} /> : "Never"}</td>
                <td className="px-4 py-3">
                  {m.secondFactor === "enrolled" ? (
                    <Badge tone="green">Enrolled</Badge>
                  ) : (
                    <Badge tone="amber">Not enrolled yet</Badge>
                  )}
                </td>
                <td className="px-4 py-3">
                  {m.deactivatedAt ? (
                    <span>
                      Deactivated on <LocalTime iso={m.deactivatedAt} format="date" />
                    </span>
                  ) : (
                    <Badge tone="green">Active</Badge>
                  )}
                  {m.invitationPending ? (
                    <span className="mt-1 block text-xs text-ink-muted">
                      Invitation pending: no password chosen yet
                    </span>
                  ) : null}
                </td>
                <td className="px-4 py-3">
                  {m.worksOutsideUs ? <Badge tone="amber">Outside the US</Badge> : <Badge tone="grey">In the US</Badge>}
                </td>
                <td className="px-4 py-3">
                  {me ? null : (
                    <div className="flex flex-wrap justify-end gap-2">
                      <ActionButton
                        intent="outside-us"
                        member={m}
                        fields={{ outside: m.worksOutsideUs ? "no" : "yes" }}
                        label={m.worksOutsideUs ? "Mark as in the US" : "Mark as outside the US"}
                        busyLabel="Saving..."
                        confirm={
                          m.worksOutsideUs
                            ? `Mark ${m.name} as working in the United States? They see every case again, and the full SSN or ITIN on Reveal.`
                            : `Mark ${m.name} as working outside the United States? They see only the cases of clients who consented to disclosure, never a full SSN or ITIN, and leave every other case assigned to them.`
                        }
                      />
                      {m.secondFactor === "enrolled" && !m.deactivatedAt ? (
                        <ActionButton
                          intent="reset-second-factor"
                          member={m}
                          label="Reset second factor"
                          busyLabel="Resetting..."
                          confirm={`Reset ${m.name}'s second factor? They are signed out and set it up again at their next sign-in.`}
                        />
                      ) : null}
                      {m.deactivatedAt ? (
                        <ActionButton
                          intent="reactivate"
                          member={m}
                          label="Reactivate"
                          busyLabel="Reactivating..."
                          confirm={`Let ${m.name} sign in again?`}
                        />
                      ) : (
                        <ActionButton
                          intent="deactivate"
                          member={m}
                          label="Deactivate"
                          busyLabel="Deactivating..."
                          confirm={`Deactivate ${m.name}? They are signed out at once and their cases become unassigned.`}
                        />
                      )}
                    </div>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
