import { ArrowRight, BellRing, Eye, FilePen, MessagesSquare, Receipt } from "lucide-react";
import { Link } from "react-router";
import { CaseStageBadge } from "./case-stage";
import { DetailRow, FilingStatusBadge, MaskedSsn, displayValue, filingTitle } from "./filing-parts";
import { Button, ButtonLink } from "~/components/ui/button";
import { FEE_TEXTS, feeAddress } from "~/domain/fees";
import { clientMessagesPath } from "~/domain/messages";
import type { AwaitingFiling, FilingEntry } from "~/domain/portal";
import { TAXPAYER_LABELS, formatUsDate } from "~/domain/taxpayer";
import type { StageKey } from "~/domain/workflow";

export const viewDetailsButtonId = (filingId: string) => `filing-${filingId}-details`;

/** The page of one tax year's filing. */
export const filingPath = (taxYear: number) => `/my-tax-filing/${taxYear}`;

/** The taxpayer form of one tax year. */
export const taxpayerFormPath = (taxYear: number) => `/dashboard?year=${taxYear}`;

/** The year's conversation, with the firm's messages not read yet. */
function MessagesLink({ taxYear, unread }: { taxYear: number; unread: number }) {
  return (
    <ButtonLink
      to={clientMessagesPath(taxYear)}
      variant={unread > 0 ? "primary" : "secondary"}
      size="sm"
      className="min-h-11 sm:min-h-0"
    >
      <MessagesSquare className="size-4" aria-hidden="true" />
      Messages
      <span className="sr-only">{` about ${taxYear}`}</span>
      {unread > 0 ? ` (${unread} unread)` : null}
    </ButtonLink>
  );
}

/** The tax year and the stage, above each card's content. */
function YearAndStage({ taxYear, stage }: { taxYear: number; stage: StageKey }) {
  return (
    <div className="mb-4 flex flex-wrap items-center justify-between gap-2 border-b border-line pb-3">
      <p className="text-sm font-semibold tracking-wide text-primary-700 uppercase">{`${taxYear} tax year`}</p>
      <CaseStageBadge stage={stage} />
    </div>
  );
}

/** The return's step waiting for the client, as a link to the filing page. */
function WaitingLine({ taxYear, waiting }: { taxYear: number; waiting: string | undefined }) {
  if (!waiting) return null;
  return (
    <Link to={filingPath(taxYear)} className="mt-3 inline-flex min-h-11 items-center gap-2 self-start rounded-full bg-accent-50 px-3 text-sm font-semibold text-accent-700 hover:underline sm:min-h-8">
      <BellRing className="size-4" aria-hidden="true" />
      {waiting}
    </Link>
  );
}

/** The year's fee still owed ("Fee due: $299.00"), leading to its Fee panel. */
function FeeDueLine({ taxYear, dueCents }: { taxYear: number; dueCents: number | undefined }) {
  if (!dueCents) return null;
  return (
    <Link to={feeAddress(taxYear)} className="mt-3 inline-flex min-h-11 items-center gap-2 self-start rounded-full bg-accent-50 px-3 text-sm font-semibold text-accent-700 hover:underline sm:min-h-8">
      <Receipt className="size-4" aria-hidden="true" />
      {FEE_TEXTS.feeDue(dueCents)}
    </Link>
  );
}

/**
 * One filing in My Tax Filings: its year and stage, then the card's fields
 * (docs/product/workflow.md#what-the-client-sees). The SSN shown is the
 * server's masked copy, never the full number.
 */
export function FilingCard({
  filing,
  onViewDetails,
  unreadMessages = 0,
  waiting,
  feeDueCents,
}: {
  filing: FilingEntry;
  onViewDetails: () => void;
  /** What the client still owes for this year, in cents (nothing: no open invoice). */
  feeDueCents?: number;
  /** The firm's messages of this year the client has not read. */
  unreadMessages?: number;
  /** What of the return waits for the client ("Draft ready for your review"), if anything. */
  waiting?: string;
}) {
  const titleId = `filing-${filing.id}-title`;
  return (
    <article
      aria-labelledby={titleId}
      className="flex h-full flex-col rounded-[var(--radius-card)] border border-line bg-white p-5 shadow-card sm:p-6"
    >
      <YearAndStage taxYear={filing.taxYear} stage={filing.stage} />
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h3 id={titleId} className="min-w-0 text-lg font-semibold break-words text-ink">
          {filingTitle(filing)}
        </h3>
        <FilingStatusBadge status={filing.status} />
      </div>
      <WaitingLine taxYear={filing.taxYear} waiting={waiting} />
      <FeeDueLine taxYear={filing.taxYear} dueCents={feeDueCents} />

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

      <div className="mt-5 flex flex-wrap gap-3 border-t border-line pt-4">
        <Button
          id={viewDetailsButtonId(filing.id)}
          type="button"
          variant="secondary"
          size="sm"
          className="min-h-11 sm:min-h-0"
          aria-haspopup="dialog"
          aria-describedby={titleId}
          onClick={onViewDetails}
        >
          <Eye className="size-4" aria-hidden="true" />
          View Details
        </Button>
        <ButtonLink to={filingPath(filing.taxYear)} size="sm" className="min-h-11 sm:min-h-0">
          {`Open ${filing.taxYear} filing`}
          <ArrowRight className="size-4" aria-hidden="true" />
        </ButtonLink>
        <MessagesLink taxYear={filing.taxYear} unread={unreadMessages} />
      </div>
    </article>
  );
}

/**
 * A tax year whose case is open but whose taxpayer information is not sent yet: its year, its
 * stage and the way to fill in that year's form.
 */
export function AwaitingCard({ entry, unreadMessages = 0, waiting, feeDueCents }: { entry: AwaitingFiling; unreadMessages?: number; waiting?: string; feeDueCents?: number }) {
  const titleId = `awaiting-${entry.taxYear}-title`;
  return (
    <article
      aria-labelledby={titleId}
      className="flex h-full flex-col rounded-[var(--radius-card)] border border-dashed border-primary-200 bg-white p-5 shadow-card sm:p-6"
    >
      <YearAndStage taxYear={entry.taxYear} stage={entry.stage} />
      <h3 id={titleId} className="text-lg font-semibold text-ink">
        {`Taxpayer information for ${entry.taxYear} not sent yet`}
      </h3>
      <WaitingLine taxYear={entry.taxYear} waiting={waiting} />
      <FeeDueLine taxYear={entry.taxYear} dueCents={feeDueCents} />
      <p className="mt-2 flex-1 text-ink-soft">
        {`Fill in the taxpayer form for ${entry.taxYear} so that we can work on this filing.`}
      </p>
      <div className="mt-5 flex flex-wrap gap-3 border-t border-line pt-4">
        <ButtonLink to={taxpayerFormPath(entry.taxYear)} size="sm" className="min-h-11 sm:min-h-0">
          <FilePen className="size-4" aria-hidden="true" />
          {`Fill in the ${entry.taxYear} form`}
        </ButtonLink>
        <ButtonLink
          to={filingPath(entry.taxYear)}
          variant="secondary"
          size="sm"
          className="min-h-11 sm:min-h-0"
        >
          {`Open ${entry.taxYear} filing`}
          <ArrowRight className="size-4" aria-hidden="true" />
        </ButtonLink>
        <MessagesLink taxYear={entry.taxYear} unread={unreadMessages} />
      </div>
    </article>
  );
}
