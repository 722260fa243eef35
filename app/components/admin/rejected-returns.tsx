import { Link } from "react-router";
import { caseSectionPath } from "~/domain/case-sections";
import { resendDaysText } from "~/domain/returns";
import type { RejectedReturn } from "~/domain/returns";
import { formatUsDate } from "~/domain/taxpayer";
import { plural } from "./format";

export type RejectedReturnsProps = {
  /** The rejections not yet sent again, most urgent first. */
  rejected: readonly RejectedReturn[];
};

const JURISDICTION_LABELS = { federal: "Federal", state: "State" } as const;

/**
 * Rejected returns (docs/product/workflow.md#rejected-returns): each rejection not yet sent
 * again, most urgent first, with the days left of the period to correct it and send it again.
 * Nothing at all when there are none.
 */
export function RejectedReturns({ rejected }: RejectedReturnsProps) {
  if (rejected.length === 0) return null;
  return (
    <section
      aria-labelledby="rejected-returns-title"
      className="rounded-[var(--radius-card)] border border-red-300 bg-white p-4 shadow-card sm:p-5"
    >
      <h2 id="rejected-returns-title" className="text-lg font-semibold text-ink">
        Rejected returns
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        {`${plural(rejected.length, "return", "returns")} to correct and send again, most urgent first.`}
      </p>
      <ul className="mt-3 divide-y divide-line">
        {rejected.map((r) => (
          <li
            key={`${r.clientId}-${r.taxYear}-${r.jurisdiction}-${r.transmissionId}`}
            data-rejected-return=""
            className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:justify-between sm:gap-4"
          >
            <div className="min-w-0">
              <Link
                to={caseSectionPath(r.clientId, r.taxYear)}
                className="inline-flex min-h-11 items-center font-semibold break-words text-primary-700 underline-offset-2 hover:underline sm:min-h-0"
              >
                {r.clientLabel}
              </Link>
              <p className="text-sm text-ink-soft">
                {`Tax year ${r.taxYear} · ${JURISDICTION_LABELS[r.jurisdiction]} · rejected on ${formatUsDate(r.rejectedOn)} · ${r.codes.join(", ")}`}
              </p>
            </div>
            <p className={`shrink-0 text-sm font-semibold ${r.daysLeft <= 1 ? "text-red-800" : "text-ink"}`}>
              {resendDaysText(r.daysLeft)}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
