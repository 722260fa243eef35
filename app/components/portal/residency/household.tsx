import { Form } from "react-router";
import type { PersonInput } from "~/domain/residency/forms";
import { RELATIONS } from "~/domain/residency/forms";
import { longDay } from "./history-edit";
import type { PageResult } from "./history-edit";
import { ButtonForm, Card, CheckField, failureOf, Hidden, ResultNotice, SelectField, SubmitButton, TextField, useHistoryTexts, useSending } from "./parts";

const RELATION_LABELS = { child: "Child", parent: "Parent", other: "Other" } as const;

/** "Your household": the spouse and the dependants, each removable, and the forms to add one. */
export function Household({ people, result, years }: { people: readonly PersonInput[]; result: PageResult | undefined; years: readonly number[] }) {
  const T = useHistoryTexts();
  const others = people.filter((p) => p.role !== "client");
  const hasSpouse = others.some((p) => p.role === "spouse");
  return (
    <Card id="res-household-title" title={T.householdTitle} lead={<p>{T.householdLead}</p>}>
      <ResultNotice result={result} area="household" years={years} />
      {others.length === 0 ? (
        <p className="mt-4 text-ink-soft">{T.noHousehold}</p>
      ) : (
        <ul className="mt-4 divide-y divide-line" aria-label={T.householdList}>
          {others.map((person) => (
            <li key={person.key} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3">
              <div className="min-w-0">
                <p className="font-medium break-words text-ink">{person.name}</p>
                <p className="text-sm text-ink-soft">
                  {[
                    T.roleWords(person),
                    person.dateOfBirth ? `born ${longDay(person.dateOfBirth)}` : null,
                    person.ownStays ? "own stays" : T.travelsWithClient,
                  ]
                    .filter(Boolean)
                    .join(" · ")}
                </p>
              </div>
              <ButtonForm intent="remove-person" fields={{ person: person.key }} label="Remove" what={`${person.name}, with their status periods and stays`} />
            </li>
          ))}
        </ul>
      )}
      <div className={`mt-2 grid gap-4 ${hasSpouse ? "" : "lg:grid-cols-2"}`}>
        {hasSpouse ? null : <AddPersonForm kind="spouse" result={result} />}
        <AddPersonForm kind="dependant" result={result} />
      </div>
    </Card>
  );
}

function AddPersonForm({ kind, result }: { kind: "spouse" | "dependant"; result: PageResult | undefined }) {
  const T = useHistoryTexts();
  const intent = kind === "spouse" ? "add-spouse" : "add-dependant";
  const failed = failureOf(result, intent);
  const sent = failed?.values ?? {};
  const errors = failed?.errors ?? {};
  const id = (field: string) => `res-${kind}-${field}`;
  const titleId = id("title");
  const sending = useSending(intent);
  return (
    <Form method="post" preventScrollReset noValidate className="mt-4 space-y-4 rounded-lg border border-line bg-surface p-4" aria-labelledby={titleId}>
      <h3 id={titleId} className="font-semibold text-ink">
        {kind === "spouse" ? T.addSpouse : T.addDependant}
      </h3>
      <Hidden fields={{ intent }} />
      <TextField id={id("name")} name="name" label="Name" required autoComplete="off" error={errors.name} defaultValue={sent.name} />
      {kind === "dependant" ? (
        <SelectField id={id("relation")} name="relation" label={T.relationLabel} required error={errors.relation} defaultValue={sent.relation ?? ""}>
          <option value="">Choose</option>
          {RELATIONS.map((r) => (
            <option key={r} value={r}>
              {RELATION_LABELS[r]}
            </option>
          ))}
        </SelectField>
      ) : null}
      <TextField id={id("dob")} name="dateOfBirth" type="date" label="Date of birth" hint="Optional." error={errors.dateOfBirth} defaultValue={sent.dateOfBirth} />
      <CheckField
        id={id("travels")}
        name="travelsWithMe"
        label={T.travelsWithMe}
        hint={T.travelsWithMeHint}
        error={errors.travelsWithMe}
        // Ticked at first; a refused form keeps what was sent (a box left unticked is not sent).
        defaultChecked={failed ? sent.travelsWithMe === "on" : true}
      />
      <SubmitButton label={kind === "spouse" ? "Add spouse" : "Add dependant"} busyLabel="Adding..." sending={sending} />
    </Form>
  );
}
