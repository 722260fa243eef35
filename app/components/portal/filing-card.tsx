import { Eye } from "lucide-react";
import { DetailRow, FilingStatusBadge, MaskedSsn, displayValue, filingTitle } from "./filing-parts";
import { Button } from "~/components/ui/button";
import type { FilingView } from "~/domain/portal";
import { TAXPAYER_LABELS, formatUsDate } from "~/domain/taxpayer";

export const viewDetailsButtonId = (filingId: string) => `filing-${filingId}-details`;

/** One filing in My Tax Filings. The SSN shown is the server's masked copy, never the full number. */
export function FilingCard({ filing, onViewDetails }: { filing: FilingView; onViewDetails: () => void }) {
  const titleId = `filing-${filing.id}-title`;
  return (
    <article
      aria-labelledby={titleId}
      className="flex h-full flex-col rounded-[var(--radius-card)] border border-line bg-white p-5 shadow-card sm:p-6"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h3 id={titleId} className="min-w-0 text-lg font-semibold break-words text-ink">
          {filingTitle(filing)}
        </h3>
        <FilingStatusBadge status={filing.status} />
      </div>

      <div className="@container mt-4 flex-1">
        <dl className="grid gap-x-6 gap-y-3 @sm:grid-cols-2">
          <DetailRow label={TAXPAYER_LABELS.filing_status}>{displayValue(filing.filingStatus)}</DetailRow>
          <DetailRow label="Submitted On">{formatUsDate(filing.submittedOn)}</DetailRow>
          <DetailRow label={TAXPAYER_LABELS.ssn_tin}>
            <MaskedSsn value={filing.maskedSsn} />
          </DetailRow>
          <DetailRow label={TAXPAYER_LABELS.visa_type}>{displayValue(filing.visaType)}</DetailRow>
          <DetailRow label={TAXPAYER_LABELS.occupation} wide>
            {displayValue(filing.occupation)}
          </DetailRow>
        </dl>
      </div>

      <div className="mt-5 border-t border-line pt-4">
        <Button
          id={viewDetailsButtonId(filing.id)}
          type="button"
          variant="secondary"
          size="sm"
          aria-haspopup="dialog"
          aria-describedby={titleId}
          onClick={onViewDetails}
        >
          <Eye className="size-4" aria-hidden="true" />
          View Details
        </Button>
      </div>
    </article>
  );
}
