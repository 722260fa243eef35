import { BadgeCheck, Globe2, Landmark } from "lucide-react";
import { Form, Link } from "react-router";
import { CaseSection } from "~/components/admin/case/case-section";
import { Alert, Input, inputClass, Textarea } from "~/components/ui/field";
import { LocalTime } from "~/components/ui/local-time";
import { caseHref } from "~/domain/admin-links";
import { CONFIRM_REASON_MAX, RESIDENCY_STATUSES } from "~/domain/residency/forms";
import type { ResidencyOutcome, ResidencyStatus } from "~/domain/residency/rules";
import { Checkbox, FieldError, FormError, labelClass, Submit } from "./form-parts";
import { PersonOutcome } from "./person-outcome";
import { dollarsText, RESIDENCY_STATUS_WORDS } from "./words";
import type { HistoryPerson, ResidencyActionResult } from "./words";

/** What the section reads of the case's stored residency (the server's CaseResidencyView). */
export type ResidencyView = {
  outcome: ResidencyOutcome[] | null;
  status: ResidencyStatus | null;
  computedAt: string | null;
  foreignAccountsHighestCents: number | null;
  filesJointly: boolean;
  confirmation: { status: ResidencyStatus; at: string; by: string | null; reason: string | null } | null;
};

/** The path of the client's own page where they keep their history. */
export const CLIENT_HISTORY_PATH = "/my-residency";

/** Staff's page of the case where they edit the client's history (routes/admin/case/residency-history.tsx), keeping `back`. */
export function historyEditHref(clientId: string, taxYear: number, back: string): string {
  const section = new URL(caseHref(clientId, taxYear, back, "residency"), "http://case.invalid");
  return `${section.pathname}/history${section.search}`;
}

/**
 * The case's Residency section (docs/product/residency.md), for staff: each person's outcome with
 * the substantial presence test's table and their history, staff's findings per person, the
 * case's facts (foreign accounts, joint filing) and the confirmation of the client's status.
 * Every form is a plain POST with its `intent`; a refusal is shown beside its fields.
 */
export function ResidencySection({
  clientId,
  taxYear,
  back,
  view,
  people,
  savedAt,
  done,
  result,
}: {
  clientId: string;
  taxYear: number;
  back: string;
  view: ResidencyView;
  /** The client's history, in its order (the client first). */
  people: HistoryPerson[];
  /** When the history was last saved (null: never). */
  savedAt: string | null;
  done: string | null;
  result?: ResidencyActionResult;
}) {
  const outcomes = view.outcome ?? [];
  const personOf = (key: string) => people.find((p) => p.key === key && p.id !== null) ?? null;
  return (
    <div className="space-y-6">
      {done ? <Alert tone="success">{done}</Alert> : null}
      {result?.intent === "unknown" ? <Alert tone="error">{result.errors.form}</Alert> : null}

      <CaseSection
        id="residency"
        title="Residency"
        icon={<Globe2 className="size-5" aria-hidden="true" />}
        lead={`Tax year ${taxYear}: each person's residency, decided from the client's own visa and travel history.`}
      >
        <p className="text-sm text-ink">
          {`The client edits the history at My residency (${CLIENT_HISTORY_PATH}); staff edit it from the case, each change audited and the residency computed again: `}
          <Link to={historyEditHref(clientId, taxYear, back)} className="font-semibold text-primary-700 hover:underline">
            Edit the history
          </Link>
          {". Staff record their findings below."}
        </p>
        <p className="mt-2 text-sm text-ink-muted">
          {savedAt ? (
            <>
              The history was last saved <LocalTime iso={savedAt} />.
            </>
          ) : null}
          {view.computedAt ? (
            <>
              {savedAt ? " " : ""}The residency was computed <LocalTime iso={view.computedAt} />.
            </>
          ) : null}
        </p>
        {savedAt === null ? (
          <div className="mt-4 rounded-xl border border-accent-500 bg-accent-50 p-4 text-ink">
            <p className="font-semibold">No history yet: no visa and travel history has been saved for the client.</p>
            <p className="mt-1 text-sm">Ask the client for these (they add them at My residency), or enter them with “Edit the history”:</p>
            <ul className="mt-1 list-disc space-y-1 pl-5 text-sm">
              <li>Their visa and status periods (F-1, J-1 with its program, H-1B, green card…), with the first and last day of each.</li>
              <li>Their stays in the US: each arrival and departure day, or the I-94 website&apos;s travel history pasted in.</li>
              <li>Their spouse&apos;s and dependants&apos; periods and stays, when they have them.</li>
              <li>Their country of citizenship, and their ITIN&apos;s last year on a federal return if they have one.</li>
            </ul>
          </div>
        ) : null}
      </CaseSection>

      {outcomes.map((o) => (
        <PersonOutcome
          key={`${o.person}:${JSON.stringify(personOf(o.person)?.findings?.[taxYear] ?? null)}`}
          outcome={o}
          person={personOf(o.person)}
          taxYear={taxYear}
          result={result?.intent === "save-findings" && result.person === o.person ? result : undefined}
        />
      ))}

      {/* Keyed on what is stored: after a change the forms start afresh from it. */}
      <FactsPanel key={`${view.foreignAccountsHighestCents}:${view.filesJointly}`} taxYear={taxYear} view={view} result={result?.intent === "save-facts" ? result : undefined} />
      <ConfirmationPanel key={`${view.status}:${view.confirmation?.at ?? ""}`} view={view} result={result?.intent === "confirm" || result?.intent === "confirm-other" ? result : undefined} />
    </div>
  );
}

function FactsPanel({ taxYear, view, result }: { taxYear: number; view: ResidencyView; result?: ResidencyActionResult }) {
  const foreign = result?.values?.foreignAccounts ?? dollarsText(view.foreignAccountsHighestCents);
  const jointly = result?.values ? result.values.filesJointly === "on" : view.filesJointly;
  const error = result?.errors.foreignAccounts;
  return (
    <CaseSection
      id="residency-facts"
      title="The case's facts"
      icon={<Landmark className="size-5" aria-hidden="true" />}
      lead="What the flags of foreign accounts need (FBAR, Form 8938)."
    >
      <Form method="post" preventScrollReset className="space-y-4" aria-label="The case's facts">
        <input type="hidden" name="intent" value="save-facts" />
        <FormError id="facts-error" message={result?.errors.form} />
        <div>
          <label htmlFor="facts-foreign" className={labelClass}>
            {`Highest combined balance of foreign accounts in ${taxYear} (US dollars)`}
          </label>
          <Input
            id="facts-foreign"
            name="foreignAccounts"
            inputMode="decimal"
            autoComplete="off"
            defaultValue={foreign}
            maxLength={40}
            aria-invalid={error ? true : undefined}
            aria-describedby={`facts-foreign-hint${error ? " facts-foreign-error" : ""}`}
            className={`max-w-xs ${error ? "border-red-600" : ""}`}
          />
          <p id="facts-foreign-hint" className="mt-1 text-sm text-ink-muted">
            Dollars and cents, such as 12,345.67. Leave it empty when the client has no foreign accounts.
          </p>
          <FieldError id="facts-foreign-error" message={error} />
        </div>
        <Checkbox id="facts-jointly" name="filesJointly" label="Files jointly" defaultChecked={jointly} error={result?.errors.filesJointly} />
        <Submit intent="save-facts" variant="secondary">
          Save the facts
        </Submit>
      </Form>
    </CaseSection>
  );
}

function ConfirmationPanel({ view, result }: { view: ResidencyView; result?: ResidencyActionResult }) {
  const computed = view.status;
  const c = view.confirmation;
  const other = result?.intent === "confirm-other" ? result : undefined;
  const asComputed = result?.intent === "confirm" ? result : undefined;
  return (
    <CaseSection
      id="residency-confirmation"
      title="Confirmation"
      icon={<BadgeCheck className="size-5" aria-hidden="true" />}
      lead="Staff confirm the client's status for the year. The confirmation is cleared automatically when the outcome changes."
    >
      {computed === null ? (
        <p className="text-ink">Nothing to confirm yet: the residency has not been computed (no history has been saved).</p>
      ) : (
        <>
          <p className="text-ink">
            <span className="text-ink-muted">Computed: </span>
            <span className="font-semibold">{RESIDENCY_STATUS_WORDS[computed]}</span>
          </p>
          <div className="mt-2 text-ink" data-testid="residency-confirmation">
            {c ? (
              <p>
                <span className="font-semibold">{`Confirmed by ${c.by ?? "a former staff member"}`}</span>
                {" on "}
                <LocalTime iso={c.at} />
                {`: ${RESIDENCY_STATUS_WORDS[c.status]}${c.status !== computed ? " (not the computed status)" : ""}.`}
                {c.reason ? <span className="mt-1 block text-sm text-ink-muted">{`Reason: ${c.reason}`}</span> : null}
              </p>
            ) : (
              <p className="font-semibold">Not confirmed yet</p>
            )}
          </div>
          <Form method="post" preventScrollReset className="mt-4" aria-label="Confirm the computed status">
            <input type="hidden" name="intent" value="confirm" />
            <input type="hidden" name="status" value={computed} />
            <FormError id="confirm-error" message={asComputed ? (asComputed.errors.form ?? asComputed.errors.status ?? asComputed.errors.reason) : undefined} />
            <div className={asComputed ? "mt-3" : ""}>
              <Submit intent="confirm">{`Confirm: ${RESIDENCY_STATUS_WORDS[computed]}`}</Submit>
            </div>
          </Form>
          <details open={other !== undefined} className="mt-5 rounded-xl border border-line p-4">
            <summary className="cursor-pointer font-semibold text-ink">Set another status</summary>
            <Form method="post" preventScrollReset className="mt-3 space-y-4" aria-label="Set another status">
              <input type="hidden" name="intent" value="confirm-other" />
              <FormError id="confirm-other-error" message={other?.errors.form} />
              <div>
                <label htmlFor="confirm-status" className={labelClass}>
                  Status
                </label>
                <select
                  id="confirm-status"
                  name="status"
                  defaultValue={other?.values?.status ?? RESIDENCY_STATUSES.find((s) => s !== computed)}
                  aria-invalid={other?.errors.status ? true : undefined}
                  aria-describedby={other?.errors.status ? "confirm-status-error" : undefined}
                  className={`${inputClass} max-w-xs border-line`}
                >
                  {RESIDENCY_STATUSES.map((s) => (
                    <option key={s} value={s}>
                      {RESIDENCY_STATUS_WORDS[s]}
                    </option>
                  ))}
                </select>
                <FieldError id="confirm-status-error" message={other?.errors.status} />
              </div>
              <div>
                <label htmlFor="confirm-reason" className={labelClass}>
                  Reason
                  <span className="text-red-700" aria-hidden="true">
                    {" "}
                    *
                  </span>
                </label>
                <Textarea
                  id="confirm-reason"
                  name="reason"
                  rows={3}
                  maxLength={CONFIRM_REASON_MAX}
                  defaultValue={other?.values?.reason ?? ""}
                  aria-invalid={other?.errors.reason ? true : undefined}
                  aria-describedby={`confirm-reason-hint${other?.errors.reason ? " confirm-reason-error" : ""}`}
                  className={other?.errors.reason ? "border-red-600" : ""}
                />
                <p id="confirm-reason-hint" className="mt-1 text-sm text-ink-muted">
                  Required for a status other than the computed one: why the firm decided otherwise.
                </p>
                <FieldError id="confirm-reason-error" message={other?.errors.reason} />
              </div>
              <Submit intent="confirm-other" variant="secondary">
                Set this status
              </Submit>
            </Form>
          </details>
        </>
      )}
    </CaseSection>
  );
}
