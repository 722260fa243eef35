import { UserRound } from "lucide-react";
import type { ReactNode } from "react";
import { Form } from "react-router";
import { CaseSection } from "~/components/admin/case/case-section";
import { NO_FINDINGS } from "~/domain/residency/history";
import type { ResidencyOutcome } from "~/domain/residency/rules";
import { Checkbox, FormError, Submit } from "./form-parts";
import {
  CHOICE_TITLES,
  FLAG_TITLES,
  longDay,
  periodWords,
  RESIDENCY_FORM_WORDS,
  RESIDENCY_RULE_WORDS,
  RESIDENCY_STATUS_WORDS,
  ROLE_WORDS,
  shareOf,
  WEIGHT_WORDS,
} from "./words";
import type { HistoryPerson as PersonView, ResidencyActionResult } from "./words";

/** The findings' checkboxes, in the order staff see them. */
export const FINDING_FIELDS = [
  { name: "studentException", label: "The student exception applies (no intent to reside permanently, visa kept to)" },
  { name: "deMinimis", label: "Closer connection abroad on the first days in the US (de minimis, up to 10 days)" },
  { name: "abroadAfterLeaving", label: "Tax home and closer connection abroad after leaving" },
] as const;

const th = "px-3 py-2 text-left text-xs font-semibold tracking-wide text-ink-muted uppercase";
const td = "px-3 py-2 align-top tabular-nums";

/**
 * One person's residency for the tax year: the outcome in words, the status, rule and dates, the
 * substantial presence test's table, their history (read only), the reasons, choices, forms,
 * flags and what the history lacks, and staff's findings for the year.
 */
export function PersonOutcome({
  outcome: o,
  person,
  taxYear,
  result,
}: {
  outcome: ResidencyOutcome;
  /** The person in the stored history (null: not saved yet). */
  person: PersonView | null;
  taxYear: number;
  /** A refused findings form of this person. */
  result?: ResidencyActionResult;
}) {
  const id = `residency-person-${o.person.replace(/[^A-Za-z0-9_-]/g, "")}`;
  return (
    <CaseSection id={id} title={`${o.name} (${ROLE_WORDS[o.role]})`} icon={<UserRound className="size-5" aria-hidden="true" />}>
      <p className="text-ink">{o.summary}</p>

      <dl className="mt-4 grid gap-x-6 gap-y-3 sm:grid-cols-3" aria-label={`${o.name}: status`}>
        <Fact term="Status">{RESIDENCY_STATUS_WORDS[o.status]}</Fact>
        <Fact term="Rule">{RESIDENCY_RULE_WORDS[o.rule]}</Fact>
        <Fact term="Residency dates">
          {o.residentFrom && o.residentUntil ? `${longDay(o.residentFrom)} to ${longDay(o.residentUntil)}` : "Not a resident in " + taxYear}
        </Fact>
      </dl>

      <h3 className="mt-6 font-semibold text-ink">Substantial presence test</h3>
      <div className="mt-2 overflow-x-auto rounded-xl border border-line">
        <table className="w-full min-w-[40rem] text-sm" aria-label={`${o.name}: substantial presence test`}>
          <thead className="bg-surface">
            <tr>
              <th scope="col" className={th}>Year</th>
              <th scope="col" className={th}>Days present</th>
              <th scope="col" className={th}>Transit days</th>
              <th scope="col" className={th}>Exempt days</th>
              <th scope="col" className={th}>Counted days</th>
              <th scope="col" className={th}>Weight</th>
              <th scope="col" className={th}>Share</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {o.table.map((row) => (
              <tr key={row.year}>
                <th scope="row" className={`${td} text-left font-semibold text-ink`}>{row.year}</th>
                <td className={td}>{row.present}</td>
                <td className={td}>{row.transit}</td>
                <td className={td}>
                  {row.exempt}
                  {row.exemptWhy ? <span className="mt-0.5 block max-w-xs text-xs text-ink-muted">{row.exemptWhy}</span> : null}
                </td>
                <td className={td}>{row.counted}</td>
                <td className={td}>{WEIGHT_WORDS[row.divisor]}</td>
                <td className={td}>{shareOf(row)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot className="border-t border-line bg-surface">
            <tr>
              <th scope="row" colSpan={6} className={`${td} text-left font-semibold text-ink`}>
                Total
              </th>
              <td className={`${td} font-semibold text-ink`} data-testid="spt-total">
                {o.total}
              </td>
            </tr>
          </tfoot>
        </table>
      </div>
      <p className="mt-2 text-sm text-ink">
        {`${o.total} days: ${o.totalSixths >= 183 * 6 ? "at least 183" : "fewer than 183"}. `}
        {o.metOn ? `The test was met on ${longDay(o.metOn)}.` : `The test was not met in ${taxYear}.`}
      </p>

      <HistoryOf person={person} />

      <List title="Why" items={o.reasons} />
      {o.choices.length > 0 ? (
        <Block title="Choices to discuss">
          <ul className="space-y-2">
            {o.choices.map((c, i) => (
              <li key={`${c.kind}-${i}`} className="rounded-lg border border-line p-3">
                <p className="font-semibold text-ink">{CHOICE_TITLES[c.kind]}</p>
                <p className="mt-0.5 text-sm text-ink">{choiceDetail(c)}</p>
                <p className="mt-1 text-sm text-ink-muted">{c.text}</p>
              </li>
            ))}
          </ul>
        </Block>
      ) : null}
      <List title="Forms" items={o.forms.map((f) => RESIDENCY_FORM_WORDS[f])} empty={o.role === "dependant" ? "No return of their own." : "None."} />
      {o.flags.length > 0 ? (
        <Block title="Flags">
          <ul className="space-y-2">
            {o.flags.map((f) => (
              <li key={f.kind} className="rounded-lg border border-accent-500 bg-accent-50 p-3 text-sm text-ink">
                <span className="font-semibold">{FLAG_TITLES[f.kind]}: </span>
                {f.text}
              </li>
            ))}
          </ul>
        </Block>
      ) : null}
      {o.missing.length > 0 ? <List title="Missing from the history" items={o.missing} /> : null}

      {person?.id ? <FindingsForm person={person} name={o.name} taxYear={taxYear} result={result} /> : null}
    </CaseSection>
  );
}

function choiceDetail(c: ResidencyOutcome["choices"][number]): string {
  switch (c.kind) {
    case "first-year-choice":
      return `From ${longDay(c.from)} (${c.share} of the days to December 31); the next year's test: ${
        c.nextYear === "met" ? `met on ${longDay(c.nextYearMetOn)}` : `not met yet, ${longDay(c.nextYearMetOn)} at the earliest`
      }.`;
    case "closer-connection":
      return c.available ? "Available (Form 8840)." : "Closed: steps were taken toward a green card.";
    case "possible-termination":
      return `Residency may end on ${longDay(c.on)}.`;
    case "joint-6013g":
    case "joint-6013h":
      return `With ${c.spouse}, filing jointly.`;
  }
}

function FindingsForm({ person, name, taxYear, result }: { person: PersonView; name: string; taxYear: number; result?: ResidencyActionResult }) {
  const saved = person.findings?.[taxYear] ?? NO_FINDINGS;
  const key = person.key.replace(/[^A-Za-z0-9_-]/g, "");
  const typed = (field: string) => (result?.values ? result.values[field] === "on" : saved[field as keyof typeof saved]);
  return (
    <Form method="post" preventScrollReset className="mt-6 space-y-3 rounded-xl border border-line p-4" aria-label={`Staff's findings for ${name}, ${taxYear}`}>
      <h3 className="font-semibold text-ink">{`Staff's findings for ${taxYear}`}</h3>
      <FormError id={`findings-${key}-error`} message={result?.errors.form ?? result?.errors.person ?? result?.errors.taxYear} />
      <input type="hidden" name="intent" value="save-findings" />
      <input type="hidden" name="person" value={person.key} />
      {FINDING_FIELDS.map((f) => (
        <Checkbox key={f.name} id={`findings-${key}-${f.name}`} name={f.name} label={f.label} defaultChecked={typed(f.name)} error={result?.errors[f.name]} />
      ))}
      <Submit intent="save-findings" name="person" value={person.key} variant="secondary">
        Save
        <span className="sr-only">{` the findings for ${name}`}</span>
      </Submit>
    </Form>
  );
}

function HistoryOf({ person }: { person: PersonView | null }) {
  if (!person) return null;
  return (
    <Block title="The history">
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="min-w-0">
          <h4 className="text-sm font-semibold text-ink-muted">Visa and status periods</h4>
          {person.periods.length === 0 ? (
            <p className="mt-1 text-sm text-ink">None yet.</p>
          ) : (
            <ul className="mt-1 space-y-1 text-sm text-ink">
              {person.periods.map((p, i) => (
                <li key={i}>{periodWords(p)}</li>
              ))}
            </ul>
          )}
        </div>
        <div className="min-w-0">
          <h4 className="text-sm font-semibold text-ink-muted">Stays in the US</h4>
          {person.role !== "client" && !person.ownStays ? (
            <p className="mt-1 text-sm text-ink">Travels with the client: the client&apos;s stays count.</p>
          ) : person.stays.length === 0 ? (
            <p className="mt-1 text-sm text-ink">None yet.</p>
          ) : (
            <ul className="mt-1 space-y-1 text-sm text-ink">
              {person.stays.map((s, i) => (
                <li key={i}>
                  {`${longDay(s.arrival)} to ${s.departure ? longDay(s.departure) : "now (still in the US)"}`}
                  {s.transit ? " (in transit)" : ""}
                  {s.source === "i94" ? " (from the I-94)" : ""}
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </Block>
  );
}

function Block({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mt-5">
      <h3 className="font-semibold text-ink">{title}</h3>
      <div className="mt-2">{children}</div>
    </div>
  );
}

function List({ title, items, empty }: { title: string; items: readonly string[]; empty?: string }) {
  return (
    <Block title={title}>
      {items.length === 0 ? (
        <p className="text-sm text-ink">{empty ?? "None."}</p>
      ) : (
        <ul className="list-disc space-y-1 pl-5 text-sm text-ink">
          {items.map((item, i) => (
            <li key={i}>{item}</li>
          ))}
        </ul>
      )}
    </Block>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm text-ink-muted">{term}</dt>
      <dd className="mt-0.5 font-medium break-words text-ink">{children}</dd>
    </div>
  );
}
