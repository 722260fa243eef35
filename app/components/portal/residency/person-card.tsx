import { useState } from "react";
import { Form } from "react-router";
import { useHydrated } from "~/components/hooks";
import { PROGRAM_CATEGORIES, STATUS_LABELS, STATUSES } from "~/domain/residency/history";
import type { PeriodInput, PersonInput, StayInput } from "~/domain/residency/forms";
import { controlId, hasProgram, longDay, periodName, periodSpan, personArea } from "./history-edit";
import type { PageResult } from "./history-edit";
import { ButtonForm, Card, CheckField, failureOf, Hidden, ResultNotice, SelectField, SubmitButton, TextField, useHistoryTexts, useSending } from "./parts";

const sub = "mt-6 text-lg font-semibold text-ink";
const addBox = "mt-4 space-y-4 rounded-lg border border-line bg-surface p-4";
const itemRow = "flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3";

/** One person of the household: their status periods and their stays, each with a form to add one. */
export function PersonCard({ person, result, years }: { person: PersonInput; result: PageResult | undefined; years: readonly number[] }) {
  const T = useHistoryTexts();
  const titleId = controlId(person.key, "card", "title");
  return (
    <Card
      id={titleId}
      title={person.name}
      lead={<span className="text-sm font-semibold tracking-wide text-primary-700 uppercase">{T.roleWords(person)}</span>}
    >
      <ResultNotice result={result} area={personArea(person.key)} years={years} />

      <h3 className={sub}>{T.periodsTitle}</h3>
      <p className="mt-1 text-sm text-ink-muted">{T.periodsHint}</p>
      {person.periods.length === 0 ? (
        <p className="mt-3 text-ink-soft">{T.noPeriods}</p>
      ) : (
        <ul className="mt-2 divide-y divide-line" aria-label={`${person.name}: status periods`}>
          {person.periods.map((period) => (
            <PeriodRow key={period.from} person={person} period={period} />
          ))}
        </ul>
      )}
      <AddPeriodForm person={person} result={result} />

      <h3 className={sub}>{T.staysTitle}</h3>
      {person.ownStays ? (
        <>
          <p className="mt-1 text-sm text-ink-muted">{T.staysHint}</p>
          {person.stays.length === 0 ? (
            <p className="mt-3 text-ink-soft">{T.noStays}</p>
          ) : (
            <ul className="mt-2 divide-y divide-line" aria-label={`${person.name}: stays`}>
              {person.stays.map((stay) => (
                <StayRow key={stay.arrival} person={person} stay={stay} />
              ))}
            </ul>
          )}
          <AddStayForm person={person} result={result} />
          {person.role !== "client" ? (
            <div className="mt-4 flex flex-wrap items-center gap-3 text-sm text-ink-soft">
              <span>{T.comesAndGoes(person.name)}</span>
              <ButtonForm intent="own-stays" fields={{ person: person.key, own: "0" }} label={T.useClientStays} what={`for ${person.name}`} />
            </div>
          ) : null}
        </>
      ) : (
        <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
          <p className="font-medium text-ink">{T.travelsWithYou}</p>
          <ButtonForm intent="own-stays" fields={{ person: person.key, own: "1" }} label="Give them their own stays" what={`(${person.name})`} />
        </div>
      )}
    </Card>
  );
}

function PeriodRow({ person, period }: { person: PersonInput; period: PeriodInput }) {
  return (
    <li className={itemRow}>
      <div className="min-w-0">
        <p className="font-medium break-words text-ink">{periodName(period)}</p>
        <p className="text-sm text-ink-soft">{periodSpan(period)}</p>
      </div>
      <ButtonForm
        intent="remove-period"
        fields={{ person: person.key, from: period.from }}
        label="Remove"
        what={`the ${periodName(period)} period from ${longDay(period.from)}`}
      />
    </li>
  );
}

function StayRow({ person, stay }: { person: PersonInput; stay: StayInput }) {
  const T = useHistoryTexts();
  return (
    <li className={itemRow}>
      <div className="min-w-0">
        <p className="font-medium text-ink">
          <span className="whitespace-nowrap">{`Arrived ${longDay(stay.arrival)}`}</span>
          <span aria-hidden="true"> · </span>
          <span className="whitespace-nowrap">{stay.departure === null ? "Still here" : `Left ${longDay(stay.departure)}`}</span>
        </p>
        {stay.transit || stay.source === "i94" ? (
          <p className="mt-1 flex flex-wrap gap-2 text-xs font-semibold">
            {stay.transit ? <span className="rounded-full bg-accent-50 px-2 py-0.5 text-accent-700">In transit: no day counts</span> : null}
            {stay.source === "i94" ? <span className="rounded-full bg-primary-50 px-2 py-0.5 text-primary-700">{T.fromI94}</span> : null}
          </p>
        ) : null}
      </div>
      <ButtonForm
        intent="remove-stay"
        fields={{ person: person.key, arrival: stay.arrival }}
        label="Remove"
        what={`the stay from ${longDay(stay.arrival)}`}
      />
    </li>
  );
}

function AddPeriodForm({ person, result }: { person: PersonInput; result: PageResult | undefined }) {
  const T = useHistoryTexts();
  const failed = failureOf(result, "add-period", person.key);
  const sent = failed?.values ?? {};
  const errors = failed?.errors ?? {};
  const [status, setStatus] = useState(sent.status ?? "");
  // Without JavaScript the program's list is always there (its hint says when it applies).
  const hydrated = useHydrated();
  const id = (field: string) => controlId(person.key, "period", field);
  const titleId = id("title");
  const sending = useSending("add-period", person.key);
  return (
    <Form method="post" preventScrollReset noValidate className={addBox} aria-labelledby={titleId}>
      <h4 id={titleId} className="font-semibold text-ink">
        {T.addPeriod}
      </h4>
      <Hidden fields={{ intent: "add-period", person: person.key }} />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          id={id("status")}
          name="status"
          label="Status"
          required
          error={errors.status}
          defaultValue={sent.status ?? ""}
          onChange={(event) => setStatus(event.currentTarget.value)}
        >
          <option value="">Choose a status</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABELS[s]}
            </option>
          ))}
        </SelectField>
        {!hydrated || hasProgram(status) ? (
          <SelectField
            id={id("category")}
            name="category"
            label="What the program is for"
            hint={T.programHint}
            error={errors.category}
            defaultValue={sent.category ?? ""}
          >
            <option value="">Choose</option>
            {PROGRAM_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c[0]!.toUpperCase() + c.slice(1)}
              </option>
            ))}
          </SelectField>
        ) : null}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField id={id("from")} name="from" type="date" label="From" required error={errors.from} defaultValue={sent.from} />
        <TextField id={id("to")} name="to" type="date" label="To" hint={T.toHint} error={errors.to} defaultValue={sent.to} />
      </div>
      <SubmitButton label="Add status period" busyLabel="Adding..." sending={sending} />
    </Form>
  );
}

function AddStayForm({ person, result }: { person: PersonInput; result: PageResult | undefined }) {
  const T = useHistoryTexts();
  const failed = failureOf(result, "add-stay", person.key);
  const sent = failed?.values ?? {};
  const errors = failed?.errors ?? {};
  const id = (field: string) => controlId(person.key, "stay", field);
  const titleId = id("title");
  const sending = useSending("add-stay", person.key);
  return (
    <Form method="post" preventScrollReset noValidate className={addBox} aria-labelledby={titleId}>
      <h4 id={titleId} className="font-semibold text-ink">
        {T.addStay}
      </h4>
      <Hidden fields={{ intent: "add-stay", person: person.key }} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField id={id("arrival")} name="arrival" type="date" label="Arrived" required error={errors.arrival} defaultValue={sent.arrival} />
        <TextField id={id("departure")} name="departure" type="date" label="Left" hint={T.departureHint} error={errors.departure} defaultValue={sent.departure} />
      </div>
      <CheckField id={id("transit")} name="transit" label={T.transitLabel} hint={T.transitHint} error={errors.transit} defaultChecked={sent.transit === "on"} />
      <SubmitButton label="Add stay" busyLabel="Adding..." sending={sending} />
    </Form>
  );
}
