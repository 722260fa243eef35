import { data, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/taxpayer";
import { useCaseFrame } from "~/components/admin/case/case-frame";
import { TaxpayerSection } from "~/components/admin/case/taxpayer-section";
import { Alert } from "~/components/ui/field";
import { caseAction, caseOfRoute } from "~/server/cases/case-action.server";
import { maskedTaxpayer } from "~/server/cases/cases.server";
import { NO_STORE } from "~/server/auth/session.server";
import { worksOutsideUs } from "~/server/consents/outside-us.server";

// The case's taxpayer information (/admin/clients/:clientId/:year/taxpayer), SSN/ITIN masked;
// Reveal posts here.

export function headers() {
  return NO_STORE;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { staff, client, taxYear } = await caseOfRoute({ params, context });
  const [taxpayer, outsideUs] = await Promise.all([maskedTaxpayer(client.id, taxYear), worksOutsideUs(staff.id)]);
  // Staff who work outside the United States have no Reveal (the action refuses it too).
  return data({ taxpayer, mayReveal: !outsideUs }, { headers: NO_STORE });
}

export function action(args: Route.ActionArgs) {
  return caseAction(args, ["reveal-ssn"]);
}

export default function CaseTaxpayer() {
  const { taxpayer, mayReveal } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const frame = useCaseFrame();
  return (
    <>
      {result?.intent === "unknown" ? <Alert tone="error">{result.message}</Alert> : null}
      <TaxpayerSection
        key={`${frame.client.id}/${frame.taxYear}`}
        taxYear={frame.taxYear}
        taxpayer={taxpayer}
        mayReveal={mayReveal}
        result={result?.intent === "reveal-ssn" ? result : undefined}
      />
    </>
  );
}
