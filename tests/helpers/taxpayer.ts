import type { TaxpayerInput } from "~/domain/taxpayer";

/** A complete, valid taxpayer form, as a client would fill it in. */
export const sampleTaxpayer = {
  name_as_per_ssn: "Ravi",
  middle_name: "",
  last_name: "Kumar",
  ssn_tin: "123-45-6789",
  date_of_birth: "1990-04-12",
  occupation: "Software Engineer",
  time_zone: "EST",
  filing_status: "Single",
  first_entry_date_usa: "2016-08-20",
  visa_type: "H1-B",
  primary_country_code: "+1",
  primary_contact: "(212) 555-0147",
  secondary_country_code: "+91",
  secondary_contact: "",
  alternate_email: "",
  city: "Jersey City",
  state: "NJ",
  zipcode: "07302",
  current_mailing_address: "30 Hudson Street, Apt 12",
} satisfies TaxpayerInput;
