import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { mailKindLabel, mailReasonText } from "~/domain/mail-outbox";
import { formatUsDateTime } from "./format";

export type UndeliveredRow = {
  id: string;
  kind: string;
  recipient: string;
  /** The last failure's code (421, ECONNREFUSED). */
  reason: string | null;
  attempts: number;
  /** ISO timestamps. */
  lastAttemptAt: string | null;
  nextAttemptAt: string;
  createdAt: string;
};

const th = "px-4 py-3 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-ink-soft uppercase";
const td = "px-4 py-3 align-top";

/**
 * One list of e-mails that did not go: recipient, what it was, why (the code), tries and when.
 * `waiting`: they will be tried again (the next try's time is shown); otherwise they failed for good.
 * Each row has its "Send again" button, but one given up because its code or link expired.
 */
export function UndeliveredMailList({
  rows,
  waiting,
  caption,
}: {
  rows: readonly UndeliveredRow[];
  waiting: boolean;
  caption: string;
}) {
  const navigation = useNavigation();
  const sendingId = navigation.state === "submitting" ? navigation.formData?.get("id") : null;
  return (
    <div className="overflow-x-auto rounded-[var(--radius-card)] border border-line bg-white shadow-card">
      <table className="min-w-full divide-y divide-line text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-line bg-surface">
          <tr>
            <th scope="col" className={th}>Recipient</th>
            <th scope="col" className={th}>E-mail</th>
            <th scope="col" className={th}>Reason</th>
            <th scope="col" className={th}>Tries</th>
            <th scope="col" className={th}>{waiting ? "Last try / next try" : "Last try"}</th>
            <th scope="col" className={th}>
              <span className="sr-only">Action</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {rows.map((row) => {
            const busy = sendingId === row.id;
            return (
              <tr key={row.id}>
                <td className={`${td} break-all text-ink`}>{row.recipient}</td>
                <td className={td}>{mailKindLabel(row.kind)}</td>
                <td className={`${td} whitespace-nowrap`}>{mailReasonText(row.reason)}</td>
                <td className={td}>{row.attempts}</td>
                <td className={`${td} whitespace-nowrap`}>
                  {row.lastAttemptAt ? <time dateTime={row.lastAttemptAt}>{formatUsDateTime(row.lastAttemptAt)}</time> : "N/A"}
                  {waiting ? (
                    <>
                      <br />
                      <span className="text-ink-muted">
                        next: <time dateTime={row.nextAttemptAt}>{formatUsDateTime(row.nextAttemptAt)}</time>
                      </span>
                    </>
                  ) : null}
                </td>
                <td className={`${td} text-right`}>
                  {/* Its code or link has expired: sending it again would not help. */}
                  {row.reason === "EXPIRED" ? null : (
                    <Form method="post">
                      <input type="hidden" name="intent" value="resend" />
                      <input type="hidden" name="id" value={row.id} />
                      <Button
                        type="submit"
                        variant="secondary"
                        size="sm"
                        disabled={busy}
                        busy={busy}
                        aria-label={`Send again: ${mailKindLabel(row.kind)} to ${row.recipient}`}
                      >
                        Send again
                      </Button>
                    </Form>
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
