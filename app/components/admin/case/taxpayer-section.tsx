import { Eye, EyeOff, UserRound } from "lucide-react";
import { useState } from "react";
import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { MaskedSsn } from "~/components/portal/filing-parts";
import { Button } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import { LocalTime } from "~/components/ui/local-time";
import type { MaskedTaxpayer } from "~/domain/cases";
import { TAXPAYER_LABELS, formatUsDate } from "~/domain/taxpayer";
import type { TaxpayerField } from "~/domain/taxpayer";
import { CaseSection } from "./case-section";

export type RevealResult = { ok: true; ssn: string } | { ok: false; message: string };

/** A value as staff read it: "Not given" when the client left it empty. */
function shown(value: string | null | undefined): ReactNode {
  const text = (value ?? "").trim();
  return text === "" ? <span className="font-normal text-ink-muted">Not given</span> : text;
}

function phone(code: string, number: string): ReactNode {
  return number.trim() === "" ? shown("") : `${code} ${number}`;
}

/**
 * The year's taxpayer information as the client sent it, SSN/ITIN masked. Reveal asks the server
 * for the full number (written to the audit trail); it shows in place until Hide, and is never
 * part of the page's loaded data.
 */
export function TaxpayerSection({
  taxYear,
  taxpayer,
  result,
  mayReveal = true,
}: {
  taxYear: number;
  taxpayer: MaskedTaxpayer | null;
  result?: RevealResult;
  /** False for staff who work outside the United States: the number stays masked, with no Reveal. */
  mayReveal?: boolean;
}) {
  return (
    <CaseSection
      id="taxpayer"
      title="Taxpayer information"
      icon={<UserRound className="size-5" aria-hidden="true" />}
      lead={
        taxpayer ? (
          <>
            Submitted <LocalTime iso={taxpayer.submittedAt} /> · Last changed{" "}
            <LocalTime iso={taxpayer.updatedAt} />
          </>
        ) : (
          `For tax year ${taxYear}.`
        )
      }
    >
      {taxpayer ? (
        <Details taxpayer={taxpayer} result={result} mayReveal={mayReveal} />
      ) : (
        <p className="text-ink-soft">Not submitted yet.</p>
      )}
    </CaseSection>
  );
}

function Details({ taxpayer: t, result, mayReveal }: { taxpayer: MaskedTaxpayer; result?: RevealResult; mayReveal: boolean }) {
  const label = (field: TaxpayerField) => TAXPAYER_LABELS[field];
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Group title="Personal">
        <Row label={label("name_as_per_ssn")}>{shown(t.name_as_per_ssn)}</Row>
        <Row label={label("middle_name")}>{shown(t.middle_name)}</Row>
        <Row label={label("last_name")}>{shown(t.last_name)}</Row>
        <Row label={label("ssn_tin")} wide>
          {mayReveal ? (
            <SsnValue masked={t.ssn_tin} result={result} />
          ) : (
            <div className="space-y-2">
              <span className="font-semibold tabular-nums">
                <MaskedSsn value={t.ssn_tin} />
              </span>
              <p className="text-xs font-normal text-ink-muted">Staff who work outside the United States never see a full SSN or ITIN.</p>
            </div>
          )}
        </Row>
        <Row label={label("date_of_birth")}>{formatUsDate(t.date_of_birth)}</Row>
        <Row label={label("occupation")}>{shown(t.occupation)}</Row>
        <Row label={label("filing_status")}>{shown(t.filing_status)}</Row>
        <Row label={label("time_zone")}>{shown(t.time_zone)}</Row>
      </Group>
      <div className="grid content-start gap-4">
        <Group title="Visa">
          <Row label={label("visa_type")}>{shown(t.visa_type)}</Row>
          <Row label={label("first_entry_date_usa")}>{formatUsDate(t.first_entry_date_usa)}</Row>
        </Group>
        <Group title="Contact">
          <Row label={label("primary_contact")}>{phone(t.primary_country_code, t.primary_contact)}</Row>
          <Row label={label("secondary_contact")}>{phone(t.secondary_country_code, t.secondary_contact)}</Row>
          <Row label={label("alternate_email")} wide>
            {shown(t.alternate_email)}
          </Row>
        </Group>
      </div>
      <Group title="Address" className="lg:col-span-2">
        <Row label={label("current_mailing_address")} wide>
          <span className="whitespace-pre-line">{shown(t.current_mailing_address)}</span>
        </Row>
        <Row label={label("city")}>{shown(t.city)}</Row>
        <Row label={label("state")}>{shown(t.state)}</Row>
        <Row label={label("zipcode")}>{shown(t.zipcode)}</Row>
      </Group>
    </div>
  );
}

/** The SSN/ITIN: masked, with Reveal; once revealed, the full number with Hide. */
function SsnValue({ masked, result }: { masked: string; result?: RevealResult }) {
  const navigation = useNavigation();
  const revealing = navigation.state !== "idle" && navigation.formData?.get("intent") === "reveal-ssn";
  // Hide applies to the answer it was pressed for; a new Reveal shows the number again.
  const [hiddenFor, setHiddenFor] = useState<RevealResult | null>(null);
  const revealed = result?.ok && hiddenFor !== result ? result.ssn : null;
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-3">
        <span aria-live="polite" className="font-semibold tabular-nums">
          {revealed ? <span data-testid="revealed-ssn">{revealed}</span> : <MaskedSsn value={masked} />}
        </span>
        {revealed ? (
          <Button type="button" size="sm" variant="secondary" className="min-h-11 sm:min-h-0" onClick={() => setHiddenFor(result ?? null)}>
            <EyeOff className="size-4" aria-hidden="true" />
            Hide
          </Button>
        ) : (
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="reveal-ssn" />
            <Button
              type="submit"
              size="sm"
              variant="secondary"
              className="min-h-11 sm:min-h-0"
              disabled={revealing}
              busy={revealing}
              aria-busy={revealing}
            >
              {revealing ? null : <Eye className="size-4" aria-hidden="true" />}
              Reveal SSN/ITIN
            </Button>
          </Form>
        )}
      </div>
      <p className="text-xs font-normal text-ink-muted">
        Revealing the full number is recorded in the audit trail.
      </p>
      {result && !result.ok ? <Alert tone="error">{result.message}</Alert> : null}
    </div>
  );
}

function Group({
  title,
  className = "",
  children,
}: {
  title: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section className={`@container rounded-xl bg-surface p-4 ${className}`}>
      <h3 className="text-sm font-semibold tracking-wide text-ink-soft uppercase">{title}</h3>
      <dl className="mt-3 grid gap-x-6 gap-y-3 @sm:grid-cols-2">{children}</dl>
    </section>
  );
}

function Row({ label, wide = false, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={`min-w-0 ${wide ? "@sm:col-span-2" : ""}`}>
      <dt className="text-sm text-ink-muted">{label}</dt>
      <dd className="mt-0.5 font-medium break-words text-ink">{children}</dd>
    </div>
  );
}
