import type { ReactNode } from "react";
import { DetailRow, FilingStatusBadge, MaskedSsn, displayValue, filingTitle } from "./filing-parts";
import { Button } from "~/components/ui/button";
import { Modal } from "~/components/ui/modal";
import type { FilingView } from "~/domain/portal";
import { TAXPAYER_LABELS, formatUsDate } from "~/domain/taxpayer";

const TITLE_ID = "filing-details-title";

/** The details of one filing: Personal, Contact and Submission Information. Open while `filing` is set. */
export function FilingDetailsModal({ filing, onClose }: { filing: FilingView | null; onClose: () => void }) {
  return (
    <Modal
      open={filing !== null}
      onClose={onClose}
      labelledBy={TITLE_ID}
      closeOnBackdrop
      className="sm:max-w-2xl"
    >
      {filing ? <FilingDetails filing={filing} onClose={onClose} /> : null}
    </Modal>
  );
}

function FilingDetails({ filing, onClose }: { filing: FilingView; onClose: () => void }) {
  const { personal, contact } = filing;
  return (
    <div className="flex flex-col">
      <div className="flex flex-wrap items-start justify-between gap-3 border-b border-line pb-4">
        <div className="min-w-0">
          <p className="text-sm font-semibold tracking-wide text-primary-700 uppercase">Tax filing</p>
          <h2 id={TITLE_ID} className="mt-1 text-2xl font-bold tracking-tight break-words text-ink">
            {filingTitle(filing)}
          </h2>
        </div>
        <FilingStatusBadge status={filing.status} />
      </div>

      {/* The body scrolls on small screens; it is focusable so the keyboard can scroll it too. */}
      <div
        role="region"
        aria-label="Filing information"
        tabIndex={0}
        className="-mx-2 max-h-[min(60dvh,40rem)] space-y-6 overflow-y-auto rounded-lg px-2 py-5"
      >
        <Group title="Personal Information">
          <DetailRow label={TAXPAYER_LABELS.name_as_per_ssn}>{displayValue(personal.firstName)}</DetailRow>
          <DetailRow label={TAXPAYER_LABELS.middle_name}>{displayValue(personal.middleName)}</DetailRow>
          <DetailRow label={TAXPAYER_LABELS.last_name}>{displayValue(personal.lastName)}</DetailRow>
          <DetailRow label={TAXPAYER_LABELS.ssn_tin}>
            <MaskedSsn value={filing.maskedSsn} />
          </DetailRow>
          <DetailRow label={TAXPAYER_LABELS.date_of_birth}>{formatUsDate(personal.dateOfBirth)}</DetailRow>
          <DetailRow label={TAXPAYER_LABELS.occupation}>{displayValue(filing.occupation)}</DetailRow>
          <DetailRow label={TAXPAYER_LABELS.filing_status}>{displayValue(filing.filingStatus)}</DetailRow>
          <DetailRow label={TAXPAYER_LABELS.visa_type}>{displayValue(filing.visaType)}</DetailRow>
          <DetailRow label={TAXPAYER_LABELS.first_entry_date_usa}>
            {formatUsDate(personal.firstEntryDateUsa)}
          </DetailRow>
          <DetailRow label={TAXPAYER_LABELS.time_zone}>{displayValue(personal.timeZone)}</DetailRow>
        </Group>

        <Group title="Contact Information">
          <DetailRow label={TAXPAYER_LABELS.primary_contact}>
            {displayValue(contact.primaryContact)}
          </DetailRow>
          <DetailRow label={TAXPAYER_LABELS.secondary_contact}>
            {displayValue(contact.secondaryContact)}
          </DetailRow>
          <DetailRow label={TAXPAYER_LABELS.alternate_email} wide>
            {displayValue(contact.alternateEmail)}
          </DetailRow>
          <DetailRow label={TAXPAYER_LABELS.city}>{displayValue(contact.city)}</DetailRow>
          <DetailRow label={TAXPAYER_LABELS.state}>{displayValue(contact.state)}</DetailRow>
          <DetailRow label={TAXPAYER_LABELS.zipcode}>{displayValue(contact.zipcode)}</DetailRow>
          <DetailRow label={TAXPAYER_LABELS.current_mailing_address} wide>
            <span className="whitespace-pre-line">{displayValue(contact.mailingAddress)}</span>
          </DetailRow>
        </Group>

        <Group title="Submission Information">
          <DetailRow label="Submitted On">{formatUsDate(filing.submittedOn)}</DetailRow>
          <DetailRow label="Last Updated">{formatUsDate(filing.lastUpdated)}</DetailRow>
        </Group>
      </div>

      <div className="flex justify-end border-t border-line pt-4">
        <Button type="button" onClick={onClose} className="w-full sm:w-auto sm:min-w-28">
          Close
        </Button>
      </div>
    </div>
  );
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="@container">
      <h3 className="text-base font-semibold text-ink">{title}</h3>
      <dl className="mt-3 grid gap-x-6 gap-y-3 rounded-xl bg-surface p-4 @sm:grid-cols-2">{children}</dl>
    </section>
  );
}
