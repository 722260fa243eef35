import type { ReactNode } from "react";
import { ArrowLeft, CalendarPlus, MailPlus } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { Select } from "~/components/portal/select-field";
import { Button } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import { caseHref } from "~/domain/admin-links";
import type { StageKey } from "~/domain/workflow";
import { StageBadge } from "../stage-badge";

export type CaseHeaderProps = {
  client: { id: string; code: string; name: string; email: string };
  taxYear: number;
  /** The list to return to (already checked by the loader). */
  back: string;
  /** The client's tax years with a case, newest first. */
  years: readonly number[];
  /** The years a case could still be opened for. */
  openable: readonly number[];
  stage: StageKey;
  /** The action's answer to an open-year post that was refused. */
  result?: { ok: false; message: string };
  /** Whether the client's account still waits for its password (the invitation can go again). */
  invitationPending: boolean;
  /** Beside the stage: what the case waits for (its engagement letter). */
  aside?: ReactNode;
  /** The action's answer to "Send invitation again". */
  invitationResult?: { ok: boolean; message: string };
};

/** Who the case is about, its year (with the client's other years), the way back, and opening another year. */
export function CaseHeader({
  client,
  taxYear,
  back,
  years,
  openable,
  stage,
  result,
  invitationPending,
  aside,
  invitationResult,
}: CaseHeaderProps) {
  return (
    <header className="space-y-4">
      <p>
        <Link
          to={back}
          className="inline-flex min-h-11 items-center gap-1.5 text-sm font-semibold text-primary-700 hover:underline sm:min-h-0"
        >
          <ArrowLeft className="size-4" aria-hidden="true" />
          Back to clients
        </Link>
      </p>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-sm font-semibold tracking-wide text-primary-700">
            {client.code} · Tax year {taxYear}
          </p>
          <h1 className="mt-1 text-2xl font-bold tracking-tight break-words text-ink sm:text-3xl">
            {client.name}
          </h1>
          <p className="mt-1 text-sm break-all text-ink-muted">{client.email}</p>
        </div>
        <div className="flex flex-col items-end gap-2">
          <StageBadge stage={stage} className="mt-1" />
          {aside}
        </div>
      </div>

      <InvitationForm pending={invitationPending} result={invitationResult} />

      <div className="flex flex-wrap items-end justify-between gap-4 rounded-2xl border border-line bg-white p-4 shadow-sm">
        <nav aria-label="Tax years of this client">
          <p className="mb-1.5 text-sm font-medium text-ink">Tax years</p>
          <ul className="flex flex-wrap gap-2">
            {years.map((year) => {
              const current = year === taxYear;
              return (
                <li key={year}>
                  <Link
                    to={caseHref(client.id, year, back)}
                    aria-current={current ? "page" : undefined}
                    className={`inline-flex min-h-11 items-center rounded-lg border px-3 text-sm font-semibold tabular-nums transition-colors ${
                      current
                        ? "border-primary-600 bg-primary-600 text-white"
                        : "border-line bg-white text-primary-700 hover:border-primary-600 hover:bg-primary-50"
                    }`}
                  >
                    {year}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <OpenYearForm openable={openable} result={result} />
      </div>
    </header>
  );
}

function OpenYearForm({
  openable,
  result,
}: {
  openable: readonly number[];
  result?: { ok: false; message: string };
}) {
  const navigation = useNavigation();
  const opening = navigation.state !== "idle" && navigation.formData?.get("intent") === "open-year";
  const errorId = "open-year-error";
  if (openable.length === 0 && !result)
    return <p className="text-sm text-ink-muted">Every tax year that can be opened has a case.</p>;
  return (
    <Form method="post" preventScrollReset className="min-w-0">
      <input type="hidden" name="intent" value="open-year" />
      <div className="flex flex-wrap items-end gap-2">
        <div>
          <label htmlFor="open-year" className="mb-1.5 block text-sm font-medium text-ink">
            Open another tax year
          </label>
          <Select
            id="open-year"
            name="taxYear"
            className="min-w-32 py-2"
            aria-invalid={result ? true : undefined}
            aria-describedby={result ? errorId : undefined}
          >
            {openable.map((year) => (
              <option key={year} value={year}>
                {year}
              </option>
            ))}
          </Select>
        </div>
        <Button
          type="submit"
          variant="secondary"
          className="min-h-11 sm:min-h-0"
          disabled={opening || openable.length === 0}
          busy={opening}
          aria-busy={opening}
        >
          <CalendarPlus className="size-4" aria-hidden="true" />
          Open year
        </Button>
      </div>
      {result ? (
        <div id={errorId} className="mt-2">
          <Alert tone="error">{result.message}</Alert>
        </div>
      ) : null}
    </Form>
  );
}

/**
 * While the client has not chosen a password yet: says so, with "Send invitation again" (a
 * fresh one-time link). The answer shows here, also when the account no longer waits.
 */
function InvitationForm({
  pending,
  result,
}: {
  pending: boolean;
  result?: { ok: boolean; message: string };
}) {
  const navigation = useNavigation();
  const sending = navigation.state !== "idle" && navigation.formData?.get("intent") === "resend-invitation";
  if (!pending && !result) return null;
  return (
    <div className="space-y-3">
      {pending ? (
        <Form
          method="post"
          preventScrollReset
          className="flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-accent-500 bg-accent-50 p-4"
        >
          <input type="hidden" name="intent" value="resend-invitation" />
          <p className="min-w-0 text-sm text-ink">
            This client has not chosen a password yet: their account waits for the invitation&rsquo;s link.
          </p>
          <Button
            type="submit"
            variant="secondary"
            className="min-h-11"
            disabled={sending}
            busy={sending}
            aria-busy={sending}
          >
            {sending ? null : <MailPlus className="size-4" aria-hidden="true" />}
            Send invitation again
          </Button>
        </Form>
      ) : null}
      {result ? <Alert tone={result.ok ? "success" : "error"}>{result.message}</Alert> : null}
    </div>
  );
}
