import { Info, Scale } from "lucide-react";
import { RichText } from "~/components/marketing/service-rich-text";
import { ButtonLink } from "~/components/ui/button";
import {
  excludedShortLabels,
  residencyNote,
  residencyResultText as text,
  RETURNS_SERVICE_PATH,
} from "~/content/residency";
import { EXCLUDED_KINDS, formatSixths, SPT_MINIMUM_DAYS, SPT_TOTAL_DAYS } from "~/domain/residency";
import type { ResidencyResult, YearBreakdown } from "~/domain/residency";
import { part, RESIDENCY } from "~/enhance/contract";

function notCounted(year: YearBreakdown): { total: number; parts: string[] } {
  const parts: string[] = [];
  if (year.exemptDays > 0) parts.push(`${year.exemptDays} ${text.exemptDays}`);
  for (const kind of EXCLUDED_KINDS) {
    if (year.excluded[kind] > 0) parts.push(`${year.excluded[kind]} ${excludedShortLabels[kind]}`);
  }
  return { total: year.present - year.counted, parts };
}

/**
 * The verdict, its reasons, the arithmetic, the notes that apply, and where to go next. The
 * page's script moves focus to its heading when it appears, so screen readers announce it.
 */
export function ResidencyResultView({ result }: { result: ResidencyResult }) {
  const { taxYear, status } = result;
  return (
    <section
      aria-labelledby="residency-result-title"
      className="rounded-card border-2 border-primary-600 bg-white p-4 shadow-card sm:p-8"
    >
      <div className="flex items-start gap-4">
        <span className="hidden size-12 shrink-0 items-center justify-center rounded-full bg-primary-700 text-white sm:inline-flex">
          <Scale className="size-6" aria-hidden="true" />
        </span>
        <div>
          <h2
            id="residency-result-title"
            {...part(RESIDENCY.answerFocus)}
            tabIndex={-1}
            className="scroll-mt-28 text-2xl font-bold tracking-tight text-ink focus:outline-none focus-visible:outline-3 sm:text-3xl"
          >
            {text.heading(taxYear, status)}
          </h2>
          <p className="mt-3 text-lg text-ink" data-testid="residency-verdict">
            {text.verdict(taxYear, status)} {text.form(result.form)}
          </p>
        </div>
      </div>

      <h3 className="mt-8 text-lg font-semibold text-ink">{text.reasonsTitle}</h3>
      <ul className="mt-3 list-disc space-y-2 pl-5 text-ink-soft">
        {result.reasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>

      <div
        role="region"
        aria-labelledby="residency-arithmetic"
        tabIndex={0}
        className="mt-8 overflow-x-auto rounded-lg border border-line"
      >
        <table className="w-full border-collapse text-left text-sm">
          <caption id="residency-arithmetic" className="bg-surface px-1.5 py-3 text-left text-base font-semibold text-ink sm:px-4">
            {text.tableCaption(taxYear)}
          </caption>
          <thead className="bg-surface text-ink-soft">
            <tr>
              <th scope="col" className="px-1.5 py-2 font-semibold sm:px-4">
                {text.columns.year}
              </th>
              <th scope="col" className="px-1.5 py-2 text-right font-semibold sm:px-4">
                {text.columns.present}
              </th>
              <th scope="col" className="px-1.5 py-2 text-right font-semibold sm:px-4">
                {text.columns.notCounted}
              </th>
              <th scope="col" className="px-1.5 py-2 text-right font-semibold sm:px-4">
                {text.columns.counted}
              </th>
              <th scope="col" className="hidden px-4 py-2 font-semibold sm:table-cell">
                {text.columns.share}
              </th>
              <th scope="col" className="px-1.5 py-2 text-right font-semibold sm:px-4">
                {text.columns.term}
              </th>
            </tr>
          </thead>
          <tbody>
            {result.years.map((year, offset) => {
              const excluded = notCounted(year);
              return (
                <tr key={year.year} className="border-t border-line align-top">
                  <th scope="row" className="px-1.5 py-3 font-semibold text-ink sm:px-4">
                    {year.year}
                    <span className="block text-xs font-normal text-ink-muted sm:hidden">{text.shares[offset]}</span>
                  </th>
                  <td className="px-1.5 py-3 text-right tabular-nums sm:px-4">{year.present}</td>
                  <td className="px-1.5 py-3 text-right tabular-nums sm:px-4">
                    {excluded.total}
                    {excluded.parts.length > 0 ? (
                      <span className="block text-xs text-ink-muted">{excluded.parts.join(", ")}</span>
                    ) : null}
                  </td>
                  <td className="px-1.5 py-3 text-right tabular-nums sm:px-4">{year.counted}</td>
                  <td className="hidden px-4 py-3 sm:table-cell">{text.shares[offset]}</td>
                  <td className="px-1.5 py-3 text-right font-semibold tabular-nums sm:px-4">{formatSixths(year.termSixths)}</td>
                </tr>
              );
            })}
          </tbody>
          <tfoot>
            <tr className="border-t-2 border-ink/20 bg-surface">
              <th scope="row" colSpan={4} className="px-1.5 py-3 font-semibold text-ink sm:px-4">
                {text.total}
              </th>
              <td className="hidden sm:table-cell" />
              <td className="px-1.5 py-3 text-right text-base font-bold tabular-nums sm:px-4" data-testid="residency-total">
                {formatSixths(result.totalSixths)}
              </td>
            </tr>
          </tfoot>
        </table>
      </div>
      <p className="mt-3 text-sm text-ink-muted">
        {text.needed(taxYear, SPT_TOTAL_DAYS, SPT_MINIMUM_DAYS)} {text.exactNote}
      </p>

      {result.notes.length > 0 ? (
        <>
          <h3 className="mt-8 text-lg font-semibold text-ink">{text.notesTitle}</h3>
          <ul className="mt-3 space-y-4">
            {result.notes.map((id) => {
              const note = residencyNote(id, taxYear);
              return (
                <li key={id} className="rounded-lg border border-primary-200 bg-primary-50/60 p-4">
                  <h4 className="flex items-start gap-2 font-semibold text-ink">
                    <Info className="mt-0.5 size-5 shrink-0 text-primary-700" aria-hidden="true" />
                    {note.title}
                  </h4>
                  <p className="mt-1.5 text-ink-soft">
                    <RichText value={note.text} />
                  </p>
                </li>
              );
            })}
          </ul>
        </>
      ) : null}

      <div className="mt-8 rounded-lg border border-accent-500 bg-accent-50 p-4">
        <h3 className="font-semibold text-accent-700">{text.disclaimerTitle}</h3>
        <p className="mt-1.5 text-sm text-ink-soft">{text.disclaimer}</p>
      </div>

      <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
        <ButtonLink to={RETURNS_SERVICE_PATH} size="lg">
          {text.returnLink(result.form)}
        </ButtonLink>
        <ButtonLink to="/contact" variant="secondary" size="lg">
          {text.contactLink}
        </ButtonLink>
      </div>
      <p className="mt-6 text-sm text-ink-muted">{text.changeAnswers}</p>
    </section>
  );
}
