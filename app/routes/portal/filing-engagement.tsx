import { ArrowLeft } from "lucide-react";
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/filing-engagement";
import { EngagementRecord, LetterText } from "~/components/engagement/letter-parts";
import { Button } from "~/components/ui/button";
import { Container } from "~/components/ui/container";
import { Alert, inputClass, Textarea } from "~/components/ui/field";
import { clientLetterPdfHref, DECLINE_REASON_MAX, ENGAGEMENT_MESSAGES as M, nameOfLetter } from "~/domain/engagement";
import { parseTaxYear } from "~/domain/tax-year";
import { seo } from "~/seo";
import { NO_STORE, userContext } from "~/server/auth/session.server";
import { clientCaseStates } from "~/server/cases/client-case-states.server";
import { answerLetter, currentLetter } from "~/server/engagement/letters.server";

// The client's engagement letter of one tax year (/my-tax-filing/:year/engagement,
// docs/product/engagement.md): the letter as the firm sent it, then "Accept" (a box ticked and the
// client's legal name typed, as the letter gives it) or "Decline" with a reason; once answered,
// the record, and the signed letter's PDF. Only the signed-in client's own case: no client id is
// read from the browser; staff and a year without a case get a 404.

export const meta: Route.MetaFunction = (args) => {
  const year = parseTaxYear(args.params.year);
  return seo(args, { title: year === null ? "Engagement letter" : `${year} engagement letter`, description: "Your engagement letter.", noindex: true });
};

export function headers() {
  return NO_STORE;
}

function notFound(): never {
  throw data(null, { status: 404, headers: NO_STORE });
}

async function ownYear(context: Route.LoaderArgs["context"], rawYear: string | undefined) {
  const user = context.get(userContext);
  const taxYear = parseTaxYear(rawYear);
  if (user.role !== "user" || taxYear === null || !(await clientCaseStates(user.id, context)).cases.has(taxYear)) notFound();
  return { user, taxYear };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user, taxYear } = await ownYear(context, params.year);
  const letter = await currentLetter({ clientId: user.id, taxYear });
  const done = new URL(request.url).searchParams.get("done");
  return data({ taxYear, letter, done: done === "accepted" || done === "declined" ? done : null }, { headers: NO_STORE });
}

type Answer = { intent: "accept" | "decline"; errors: Record<string, string>; values: Record<string, string> };

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user, taxYear } = await ownYear(context, params.year);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return data<Answer>({ intent: "accept", errors: { form: M.badForm }, values: {} }, { status: 400, headers: NO_STORE });
  }
  const one = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const intent = one("intent");
  if (intent !== "accept" && intent !== "decline") return data<Answer>({ intent: "accept", errors: { form: M.badForm }, values: {} }, { status: 400, headers: NO_STORE });
  const where = { ip: context.clientIp, userAgent: request.headers.get("user-agent") ?? "" };
  const values: Record<string, string> = intent === "accept" ? { typedName: one("typedName"), agree: one("agree") } : { reason: one("reason") };
  const answered = await answerLetter(
    user,
    taxYear,
    intent === "accept"
      ? { letterId: one("letterId"), decision: "accepted", agree: one("agree") === "on", typedName: one("typedName") }
      : { letterId: one("letterId"), decision: "declined", reason: one("reason") },
    where,
  );
  if (!answered.ok) return data<Answer>({ intent, errors: answered.errors, values }, { status: answered.status, headers: NO_STORE });
  return redirect(`/my-tax-filing/${taxYear}/engagement?done=${intent === "accept" ? "accepted" : "declined"}`, { headers: NO_STORE });
}

export default function FilingEngagement() {
  const { taxYear, letter, done } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const errors = result?.errors ?? {};
  const values = result?.values ?? {};
  const name = letter ? (nameOfLetter(letter.text) ?? "") : "";
  return (
    <main id="main" className="bg-surface py-10 sm:py-14">
      <Container className="max-w-3xl">
        <Link
          to={`/my-tax-filing/${taxYear}`}
          className="inline-flex min-h-11 items-center gap-1.5 text-sm font-semibold text-primary-700 underline-offset-4 hover:underline"
        >
          <ArrowLeft className="size-4" aria-hidden="true" />
          {`Back to your ${taxYear} filing`}
        </Link>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-ink">{`Your ${taxYear} engagement letter`}</h1>
        {done === "accepted" ? <div className="mt-4"><Alert tone="success">Thank you: you accepted the engagement letter. Your signed copy is below.</Alert></div> : null}
        {done === "declined" ? <div className="mt-4"><Alert tone="success">We have your answer: you declined the letter. Your preparer will be in touch.</Alert></div> : null}
        {errors.form ? <div className="mt-4"><Alert tone="error">{errors.form}</Alert></div> : null}
        {!letter ? (
          <p className="mt-6 rounded-xl border border-line bg-white p-5 text-ink">{M.noLetter} We will e-mail you when it is ready.</p>
        ) : (
          <>
            <article aria-label="The engagement letter" className="mt-6 rounded-2xl border border-line bg-white p-5 sm:p-8">
              <LetterText text={letter.text} />
            </article>
            <div className="mt-6">
              {letter.answer ? (
                <EngagementRecord letter={letter} pdfHref={letter.answer.decision === "accepted" ? clientLetterPdfHref(taxYear, letter.id) : undefined} />
              ) : (
                <div className="grid gap-6 md:grid-cols-2">
                  <Form method="post" noValidate className="space-y-4 rounded-2xl border border-line bg-white p-5" aria-labelledby="accept-title">
                    <h2 id="accept-title" className="text-lg font-semibold text-ink">Accept the letter</h2>
                    <input type="hidden" name="intent" value="accept" />
                    <input type="hidden" name="letterId" value={letter.id} />
                    <label htmlFor="agree" className="flex min-h-11 items-start gap-3 text-ink">
                      <input
                        id="agree"
                        type="checkbox"
                        name="agree"
                        defaultChecked={values.agree === "on"}
                        aria-invalid={errors.agree ? true : undefined}
                        aria-describedby={errors.agree ? "agree-error" : undefined}
                        className="mt-1 size-4 shrink-0 rounded border-line text-primary-600"
                      />
                      <span>I have read this engagement letter and agree to its terms.</span>
                    </label>
                    {errors.agree ? <p id="agree-error" className="text-sm font-medium text-red-700">{errors.agree}</p> : null}
                    <div>
                      <label htmlFor="typedName" className="mb-1.5 block text-sm font-medium text-ink">
                        Your full legal name
                      </label>
                      <input
                        id="typedName"
                        name="typedName"
                        autoComplete="name"
                        defaultValue={values.typedName ?? ""}
                        aria-invalid={errors.typedName ? true : undefined}
                        aria-describedby={errors.typedName ? "typedName-hint typedName-error" : "typedName-hint"}
                        className={inputClass}
                      />
                      <p id="typedName-hint" className="mt-1 text-sm text-ink-muted">{`Typing your name, as the letter gives it (${name}), is your electronic signature.`}</p>
                      {errors.typedName ? <p id="typedName-error" className="mt-1 text-sm font-medium text-red-700">{errors.typedName}</p> : null}
                    </div>
                    <Button type="submit" disabled={busy("accept")} busy={busy("accept")}>
                      Accept the letter
                    </Button>
                  </Form>
                  <Form method="post" noValidate className="space-y-4 rounded-2xl border border-line bg-white p-5" aria-labelledby="decline-title">
                    <h2 id="decline-title" className="text-lg font-semibold text-ink">Decline the letter</h2>
                    <input type="hidden" name="intent" value="decline" />
                    <input type="hidden" name="letterId" value={letter.id} />
                    <div>
                      <label htmlFor="reason" className="mb-1.5 block text-sm font-medium text-ink">
                        Why do you decline it?
                      </label>
                      <Textarea
                        id="reason"
                        name="reason"
                        rows={4}
                        maxLength={DECLINE_REASON_MAX}
                        defaultValue={values.reason ?? ""}
                        aria-invalid={errors.reason ? true : undefined}
                        aria-describedby={errors.reason ? "reason-error" : undefined}
                      />
                      {errors.reason ? <p id="reason-error" className="mt-1 text-sm font-medium text-red-700">{errors.reason}</p> : null}
                    </div>
                    <Button type="submit" variant="secondary" disabled={busy("decline")} busy={busy("decline")}>
                      Decline the letter
                    </Button>
                  </Form>
                </div>
              )}
            </div>
          </>
        )}
      </Container>
    </main>
  );
}
