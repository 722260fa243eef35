import { Form } from "react-router";
import { dollarsText } from "~/domain/residency/forms";
import type { PageResult } from "./history-edit";
import { Card, failureOf, Hidden, ResultNotice, SubmitButton, TextField, useHistoryTexts, useSending } from "./parts";

/** Each filing year's highest combined balance outside the US: a fact of that year's case (FBAR, Form 8938). */
export function ForeignAccounts({
  foreign,
  result,
  years,
}: {
  foreign: ReadonlyArray<{ year: number; highestCents: number | null }>;
  result: PageResult | undefined;
  years: readonly number[];
}) {
  const T = useHistoryTexts();
  const failed = failureOf(result, "save-foreign");
  const sending = useSending("save-foreign");
  return (
    <Card id="res-foreign-title" title={T.foreignTitle} lead={<p>{T.foreignLead}</p>}>
      <ResultNotice result={result} area="foreign" years={years} />
      {foreign.length === 0 ? (
        <p className="mt-4 text-ink-soft">{T.foreignNone}</p>
      ) : (
        <ul className="mt-4 space-y-4">
          {foreign.map(({ year, highestCents }) => {
            const mine = failed !== null && failed.values.year === String(year);
            return (
              <li key={year}>
                <Form method="post" preventScrollReset noValidate className="flex flex-col gap-3 sm:flex-row sm:items-end">
                  <Hidden fields={{ intent: "save-foreign", year: String(year) }} />
                  <div className="min-w-0 flex-1">
                    <TextField
                      id={`res-foreign-${year}`}
                      name="balance"
                      label={T.foreignLabel(year)}
                      hint={T.foreignHint}
                      inputMode="decimal"
                      autoComplete="off"
                      error={mine ? failed.errors.balance : undefined}
                      defaultValue={mine ? (failed.values.balance ?? "") : dollarsText(highestCents)}
                    />
                  </div>
                  <SubmitButton label="Save" busyLabel="Saving…" sending={sending} />
                </Form>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
