import type { FilingStatus, TaxpayerField, TaxpayerValues } from "./taxpayer";
import type { FieldErrors } from "./validation";

/**
 * What /dashboard's loader sends: the owner's own record, SSN in full (only here). When the
 * record could not be read, no values at all: the page then shows no form, so that a save
 * cannot replace the stored record with an empty one.
 */
export type DashboardData =
  | { email: string; loadFailed: false; values: TaxpayerValues; hasRecord: boolean }
  | { email: string; loadFailed: true };

/** What /dashboard's action answers. */
export type DashboardResult =
  | { ok: true }
  | { ok: false; errors: FieldErrors<TaxpayerField>; formError?: string; values: TaxpayerValues };

/** One filing as My Tax Filings shows it: the SSN is masked before it leaves the server. */
export type FilingView = {
  id: string;
  fullName: string;
  filingStatus: string;
  status: FilingStatus;
  /** ISO timestamps. */
  submittedOn: string;
  lastUpdated: string;
  maskedSsn: string;
  visaType: string;
  occupation: string;
  personal: {
    firstName: string;
    middleName: string;
    lastName: string;
    dateOfBirth: string;
    firstEntryDateUsa: string;
    timeZone: string;
  };
  contact: {
    primaryContact: string;
    secondaryContact: string;
    alternateEmail: string;
    city: string;
    state: string;
    zipcode: string;
    mailingAddress: string;
  };
};
