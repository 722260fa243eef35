import { Form } from "react-router";
import { Alert, Field, Textarea } from "~/components/ui/field";
import { I94_SITE, longDay } from "./history-edit";
import type { I94Shown, PageResult } from "./history-edit";
import { Card, failureOf, Hidden, ResultNotice, SubmitButton, useHistoryTexts, useSending } from "./parts";

const FIELD_ID = "res-i94-text";

/** What the last answer has to show of a paste: the reading, or the reading again beside a refused "Add these stays". */
function readingOf(result: PageResult | undefined): I94Shown | null {
  if (!result || (result.intent !== "read-i94" && result.intent !== "add-i94")) return null;
  return "i94" in result ? result.i94 : null;
}

/**
 * "Paste your I-94 travel history": the server reads the paste and the page shows the stays it
 * read, each line it could not read and the warnings. Nothing is saved until "Add these stays",
 * which posts the stays read back (the server checks them again) and adds them to the client's.
 */
export function I94Paste({ result, years }: { result: PageResult | undefined; years: readonly number[] }) {
  const T = useHistoryTexts();
  const reading = readingOf(result);
  const failedRead = failureOf(result, "read-i94");
  const text = reading?.text ?? failedRead?.values.i94 ?? "";
  const sending = useSending("read-i94");
  return (
    <Card
      id="res-i94-title"
      title={T.i94Title}
      lead={
        <p>
          {T.i94LeadBefore}{" "}
          <a href={I94_SITE} target="_blank" rel="noreferrer" className="font-semibold text-primary-700 underline underline-offset-4">
            i94.cbp.dhs.gov
          </a>
          {T.i94LeadAfter}
        </p>
      }
    >
      <ResultNotice result={result} area="i94" years={years} />
      <Form method="post" preventScrollReset noValidate className="mt-4 space-y-4">
        <Hidden fields={{ intent: "read-i94" }} />
        <Field id={FIELD_ID} label={T.i94Label} hint={T.i94Hint} error={failedRead?.errors.i94}>
          {(aria) => (
            <Textarea
              {...aria}
              name="i94"
              rows={8}
              defaultValue={text}
              spellCheck={false}
              autoComplete="off"
              className="font-mono text-sm"
              placeholder={"1\t2025-08-14\tArrival\tNYC"}
            />
          )}
        </Field>
        <SubmitButton label={T.i94Read} busyLabel="Reading..." sending={sending} />
      </Form>
      {reading ? <Reading reading={reading} /> : null}
    </Card>
  );
}

function Reading({ reading }: { reading: I94Shown }) {
  const T = useHistoryTexts();
  const n = reading.stays.length;
  const sending = useSending("add-i94");
  return (
    <div className="mt-6 space-y-5 border-t border-line pt-5" aria-live="polite">
      {n === 0 ? (
        <Alert tone="warning">{T.i94NothingRead}</Alert>
      ) : (
        <div>
          <h3 className="text-lg font-semibold text-ink">{T.i94WhatRead}</h3>
          <p className="mt-1 text-ink-soft">{T.i94ReadLead(n)}</p>
          <ul className="mt-2 divide-y divide-line" aria-label={T.i94ReadList}>
            {reading.stays.map((stay) => (
              <li key={stay.arrival} className="py-2 font-medium text-ink">
                <span className="whitespace-nowrap">{`Arrived ${longDay(stay.arrival)}`}</span>
                <span aria-hidden="true"> · </span>
                <span className="whitespace-nowrap">{stay.departure === null ? "Still here" : `Left ${longDay(stay.departure)}`}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {reading.unread.length > 0 ? (
        <div>
          <h3 className="text-lg font-semibold text-ink">{T.i94Unread}</h3>
          <p className="mt-1 text-sm text-ink-muted">{T.i94UnreadHint}</p>
          <ul className="mt-2 space-y-2" aria-label={T.i94Unread}>
            {reading.unread.map((line) => (
              <li key={line.line} className="rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
                <p className="font-medium">{line.message}</p>
                {line.text ? <p className="mt-1 font-mono text-xs break-all">{line.text}</p> : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {reading.warnings.length > 0 ? (
        <div>
          <h3 className="text-lg font-semibold text-ink">{T.i94Warnings}</h3>
          <ul className="mt-2 space-y-2" aria-label={T.i94Warnings}>
            {reading.warnings.map((line) => (
              <li key={`${line.line}-${line.message}`} className="rounded-lg border border-accent-500 bg-accent-50 px-3 py-2 text-sm font-medium text-accent-700">
                {line.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {n > 0 ? (
        <Form method="post" preventScrollReset>
          <Hidden fields={{ intent: "add-i94", stays: JSON.stringify(reading.stays), i94: reading.text }} />
          <SubmitButton label={T.i94Add(n)} busyLabel="Adding..." sending={sending} />
        </Form>
      ) : null}
    </div>
  );
}
