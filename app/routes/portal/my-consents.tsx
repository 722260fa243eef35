import { data, Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/my-consents";
import { Button } from "~/components/ui/button";
import { Container } from "~/components/ui/container";
import { Alert } from "~/components/ui/field";
import { CONSENT_MESSAGES, CONSENT_PAGE, isConsentKind, WithdrawConsentForm } from "~/domain/consents";
import type { ConsentKind } from "~/domain/consents";
import { seo } from "~/seo";
import { NO_STORE } from "~/server/auth/session.server";
import { ownClientOr404 } from "~/server/auth/client-pages.server";
import { ownConsents, withdrawConsent } from "~/server/consents/consents.server";
import { parseForm } from "~/server/http/form.server";

// The client's consents under section 7216 (docs/product/engagement.md#consents-under-section-7216):
// each kind, whether it is in force and until when, a link to its own page, and Withdraw for one
// in force (a POST here, recorded, effective at once). Only ever the signed-in client's own
// consents: no client id is read from the browser. Staff get a 404.

export const meta: Route.MetaFunction = (args) =>
  seo(args, { title: CONSENT_PAGE.title, description: "Your consents to use and to disclose your tax return information.", noindex: true });

export function headers() {
  return NO_STORE;
}



export async function loader({ context }: Route.LoaderArgs) {
  const client = ownClientOr404(context);
  return data({ consents: await ownConsents(client) }, { headers: NO_STORE });
}

type Answer = { ok: boolean; message: string };

export async function action({ request, context }: Route.ActionArgs) {
  const client = ownClientOr404(context);
  const parsed = await parseForm(request, WithdrawConsentForm);
  const kind = parsed.ok ? parsed.values.kind : "";
  if (!parsed.ok || parsed.values.intent !== "withdraw" || !isConsentKind(kind))
    return data<Answer>({ ok: false, message: CONSENT_MESSAGES.unknownKind }, { status: 400, headers: NO_STORE });
  const outcome = await withdrawConsent(client, kind, context.clientIp, request.headers.get("user-agent"));
  return data<Answer>({ ok: outcome.ok, message: outcome.message }, { status: outcome.ok ? 200 : outcome.status, headers: NO_STORE });
}

/** The answer a consent's page sent the client back with (?answered=use-given), in words. */
function answeredMessage(answered: string | null, consents: ReturnType<typeof useLoaderData<typeof loader>>["consents"]): string | null {
  const [kind, decision] = (answered ?? "").split("-");
  if (!isConsentKind(kind)) return null;
  const standing = consents.find((c) => c.kind === kind)!;
  if (decision === "given" && standing.inForce && standing.through) return CONSENT_MESSAGES.given(standing.title, standing.through);
  if (decision === "refused" && !standing.inForce) return CONSENT_MESSAGES.refused(standing.title);
  return null;
}

export default function MyConsents() {
  const { consents } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const answered = answer ? null : answeredMessage(params.get("answered"), consents);
  return (
    <main id="main" className="bg-surface py-10 sm:py-14">
      <Container className="max-w-3xl space-y-6">
        <div className="space-y-2">
          <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">{CONSENT_PAGE.title}</h1>
          <p className="text-ink-soft">{CONSENT_PAGE.lead}</p>
        </div>
        {answer ? <Alert tone={answer.ok ? "success" : "error"}>{answer.message}</Alert> : null}
        {answered ? <Alert tone="success">{answered}</Alert> : null}
        <ul className="space-y-4">
          {consents.map((c) => {
            const busy = navigation.state === "submitting" && navigation.formData?.get("kind") === c.kind;
            return (
              <li key={c.kind} data-testid={`consent-${c.kind}`} className="space-y-3 rounded-[var(--radius-card)] border border-line bg-white p-5 shadow-card">
                <h2 className="text-lg font-semibold text-ink">{c.title}</h2>
                <p className="text-ink-soft">{c.summary}</p>
                <p className={c.inForce ? "font-semibold text-green-800" : "font-semibold text-ink"}>
                  {c.inForce ? c.note : `${CONSENT_PAGE.notInForce} ${c.note}`}
                </p>
                <div className="flex flex-wrap items-center gap-3">
                  <Link to={pageOf(c.kind)} className="inline-flex min-h-11 items-center font-semibold text-primary-700 underline underline-offset-2 hover:text-primary-800">
                    {c.inForce ? CONSENT_PAGE.readAgain : CONSENT_PAGE.read}
                    <span className="sr-only">{`: ${c.title}`}</span>
                  </Link>
                  {c.inForce ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="withdraw" />
                      <input type="hidden" name="kind" value={c.kind} />
                      <Button type="submit" variant="secondary" className="min-h-11" busy={busy} disabled={busy} aria-label={`${CONSENT_PAGE.withdraw}: ${c.title}`}>
                        {CONSENT_PAGE.withdraw}
                      </Button>
                    </Form>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
        <Link to="/my-tax-filing" className="inline-block font-semibold text-primary-700 underline underline-offset-2 hover:text-primary-800">
          Back to My Tax Filing
        </Link>
      </Container>
    </main>
  );
}

function pageOf(kind: ConsentKind): string {
  return `/my-consents/${kind}`;
}
