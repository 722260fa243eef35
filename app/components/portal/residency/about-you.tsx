import { Form } from "react-router";
import type { PersonInput } from "~/domain/residency/forms";
import { STUDENT_STATUSES } from "./history-edit";
import type { PageResult } from "./history-edit";
import { Card, CheckField, failureOf, Hidden, ResultNotice, SubmitButton, TextField, useHistoryTexts, useSending } from "./parts";

const id = (field: string) => `res-about-${field}`;

const FICA_CHOICES = [
  { value: "yes", label: "Yes" },
  { value: "no", label: "No" },
  { value: "unknown", label: "Not sure" },
] as const;

/** Whether the client studies here: an F-1 or M-1, or a J-1 or Q-1 student (a Q-1 without a category is one). */
function isStudent(client: PersonInput): boolean {
  return client.periods.some(
    (p) => STUDENT_STATUSES.includes(p.status) || ((p.status === "J-1" || p.status === "Q-1") && (p.category === "student" || p.category === null)),
  );
}

/** "About you": the client's own facts that the forms depend on. One form, one Save. */
export function AboutYou({ client, result, years }: { client: PersonInput; result: PageResult | undefined; years: readonly number[] }) {
  const T = useHistoryTexts();
  const failed = failureOf(result, "save-about");
  const errors = failed?.errors ?? {};
  // A refused form shows what was sent; otherwise the history as saved.
  const value = (name: string, saved: string | number | null | undefined) => (failed ? (failed.values[name] ?? "") : saved === null || saved === undefined ? "" : String(saved));
  const fica = failed ? (failed.values.fica ?? "") : client.ficaWithheld === true ? "yes" : client.ficaWithheld === false ? "no" : "";
  const showSchool = isStudent(client) || Boolean(client.school);
  const showSponsor = client.periods.some((p) => p.status === "J-1") || Boolean(client.sponsor);
  const sending = useSending("save-about");
  const ficaError = errors.fica;
  return (
    <Card id="res-about-title" title={T.aboutTitle} lead={<p>{T.aboutLead}</p>}>
      <ResultNotice result={result} area="about" years={years} />
      <Form method="post" preventScrollReset noValidate className="mt-4 space-y-5">
        <Hidden fields={{ intent: "save-about", ...(showSchool ? { "has-school": "1" } : {}), ...(showSponsor ? { "has-sponsor": "1" } : {}) }} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            id={id("citizenship")}
            name="citizenship"
            label="Country of citizenship"
            hint={T.citizenshipHint}
            autoComplete="off"
            error={errors.citizenship}
            defaultValue={value("citizenship", client.citizenship)}
          />
          <TextField
            id={id("tax-residence")}
            name="taxResidence"
            label="Country of tax residence"
            hint={T.taxResidenceHint}
            autoComplete="off"
            error={errors.taxResidence}
            defaultValue={value("taxResidence", client.taxResidence)}
          />
        </div>

        <fieldset className="space-y-3">
          <legend className="text-sm font-medium text-ink">{T.itinLegend}</legend>
          <p className="text-sm text-ink-muted">{T.itinHint}</p>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              id={id("itin-issued")}
              name="itinIssued"
              label="Year it was issued"
              inputMode="numeric"
              autoComplete="off"
              error={errors.itinIssued}
              defaultValue={value("itinIssued", client.itin?.issuedYear)}
            />
            <TextField
              id={id("itin-last-used")}
              name="itinLastUsed"
              label="Last tax year used on a federal return"
              inputMode="numeric"
              autoComplete="off"
              error={errors.itinLastUsed}
              defaultValue={value("itinLastUsed", client.itin?.lastUsedYear)}
            />
          </div>
        </fieldset>

        <fieldset aria-describedby={`${id("fica")}-hint${ficaError ? ` ${id("fica")}-error` : ""}`}>
          <legend className="text-sm font-medium text-ink">{T.ficaLegend}</legend>
          <p id={`${id("fica")}-hint`} className="mt-1 text-sm text-ink-muted">
            {T.ficaHint}
          </p>
          <div className="mt-2 flex flex-wrap gap-x-6">
            {FICA_CHOICES.map((choice) => (
              <label key={choice.value} className="flex min-h-11 items-center gap-2 text-sm font-medium text-ink">
                <input
                  type="radio"
                  name="fica"
                  value={choice.value}
                  defaultChecked={fica === choice.value}
                  aria-invalid={Boolean(ficaError)}
                  className="size-5 accent-primary-600"
                />
                {choice.label}
              </label>
            ))}
          </div>
          {ficaError ? (
            <p id={`${id("fica")}-error`} className="mt-1 text-sm font-medium text-red-700">
              {ficaError}
            </p>
          ) : null}
        </fieldset>

        {showSchool || showSponsor ? (
          <div className="grid gap-4 sm:grid-cols-2">
            {showSchool ? (
              <TextField
                id={id("school")}
                name="school"
                label={T.schoolLabel}
                hint={T.schoolHint}
                autoComplete="off"
                error={errors.school}
                defaultValue={value("school", client.school)}
              />
            ) : null}
            {showSponsor ? (
              <TextField
                id={id("sponsor")}
                name="sponsor"
                label={T.sponsorLabel}
                hint={T.sponsorHint}
                autoComplete="off"
                error={errors.sponsor}
                defaultValue={value("sponsor", client.sponsor)}
              />
            ) : null}
          </div>
        ) : null}

        <CheckField
          id={id("green-card")}
          name="greenCardSteps"
          label={T.greenCardLabel}
          hint={T.greenCardHint}
          error={errors.greenCardSteps}
          defaultChecked={failed ? failed.values.greenCardSteps === "on" : client.greenCardSteps}
        />
        <SubmitButton label={T.save} busyLabel="Saving..." sending={sending} />
      </Form>
    </Card>
  );
}
