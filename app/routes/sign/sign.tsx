import { FileSignature } from "lucide-react";
import { data, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/sign";
import { SigningForms, SpouseMessage } from "~/components/portal/return-forms";
import { Container } from "~/components/ui/container";
import { Alert } from "~/components/ui/field";
import { formsByIntent } from "~/domain/admin";
import { RETURN_CLIENT_MESSAGES, SendCodeForm, SignForm, signedFormResult, SpouseMessageForm } from "~/domain/return-client";
import type { ReturnFormResult, SigningView } from "~/domain/return-client";
import { seo } from "~/seo";
import { NO_STORE } from "~/server/auth/session.server";
import { parseForm } from "~/server/http/form.server";
import { sendCode, signWithCode } from "~/server/returns/signer-forms.server";
import { signerView } from "~/server/returns/signer-view.server";
import { sendSpouseMessage } from "~/server/returns/spouse-messages.server";

// The spouse's signing page (docs/product/return-and-signature.md): reached with the link
// e-mailed to them, without an account. The link's token is the key: the page is never cached
// or indexed, and a link that does not work says only that.

export const meta: Route.MetaFunction = (args) =>
  seo(args, { title: "Sign your e-file authorisation", description: "Sign the e-file authorisation of your joint tax return.", noindex: true });

// The site's Referrer-Policy (strict-origin-when-cross-origin) already sends other sites no path.
const PAGE_HEADERS = { ...NO_STORE, "X-Robots-Tag": "noindex, nofollow" };

export function headers() {
  return PAGE_HEADERS;
}

type SignPageData =
  | { valid: false }
  | ({ valid: true; taxYear: number; pageUrl: string; formUrl: string; signedForm: ReturnFormResult | null } & SigningView);

export async function loader({ request, params }: Route.LoaderArgs) {
  const view = await signerView({ token: params.token });
  if (!view.ok) return data<SignPageData>({ valid: false }, { status: 404, headers: PAGE_HEADERS });
  return data<SignPageData>(
    {
      valid: true,
      ...view.signing,
      taxYear: view.taxYear,
      // What the hand-signed form's upload answered (it sends the browser back here).
      signedForm: signedFormResult(new URL(request.url).searchParams.get("signed-form")),
      pageUrl: `/sign/${encodeURIComponent(params.token)}`,
      formUrl: `/sign/${encodeURIComponent(params.token)}/form`,
    },
    { headers: PAGE_HEADERS },
  );
}

const SpouseForms = formsByIntent([SendCodeForm, SignForm, SpouseMessageForm]);

/**
 * Send a code, sign with it, or write to the firm: the spouse's link is the access (the
 * hand-signed form has its own address).
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const access = { token: params.token };
  const reply = (result: ReturnFormResult, status: number) => data<ReturnFormResult>(result, { status, headers: PAGE_HEADERS });
  const parsed = await parseForm(request, SpouseForms);
  if (!parsed.ok)
    return parsed.raw.intent === "message"
      ? reply({ intent: "message", ok: false, message: parsed.first.message }, 400)
      : reply({ intent: "sign", ok: false, message: "The form could not be read. Please try again." }, 400);
  const form = parsed.values;
  if (form.intent === "message") {
    const sent = await sendSpouseMessage(params.token, form.body, context.clientIp);
    return sent.ok ? reply({ intent: "message", ok: true, message: RETURN_CLIENT_MESSAGES.spouseMessageSent }, 200) : reply({ intent: "message", ok: false, message: sent.error }, 409);
  }
  const answer =
    form.intent === "send-code"
      ? await sendCode(access, context.clientIp)
      : await signWithCode(access, form, { ip: context.clientIp, userAgent: request.headers.get("user-agent") ?? "" });
  return reply(answer.result, answer.status);
}

export default function SignPage() {
  const page = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  return (
    <main id="main" className="bg-surface py-10 sm:py-14">
      <Container className="max-w-3xl">
        {page.valid && page.waiting ? (
          <>
            {/* The hand-signed form is uploaded: one confirmation, nothing more to do. */}
            <h1 className="text-3xl font-bold tracking-tight">{`Your signed Form ${page.authorizationForm}`}</h1>
            <div className="mt-6">
              <SigningForms action={page.pageUrl} uploadUrl={`${page.pageUrl}/signed-form`} formUrl={page.formUrl} signing={page} />
            </div>
          </>
        ) : page.valid ? (
          <>
            <h1 className="text-3xl font-bold tracking-tight">{`Sign your e-file authorisation (Form ${page.authorizationForm})`}</h1>
            <p className="mt-2 text-ink-soft">
              {`Hello ${page.name}. Your ${page.taxYear} joint tax return is ready to be sent to the IRS. As the spouse on the return, please sign Form ${page.authorizationForm}.`}
            </p>
            <section aria-label="Sign the form" className="mt-8 rounded-[var(--radius-card)] bg-white p-5 shadow-card sm:p-6">
              <SigningForms
                action={page.pageUrl}
                uploadUrl={`${page.pageUrl}/signed-form`}
                formUrl={page.formUrl}
                signing={page}
                posted={posted ?? page.signedForm ?? undefined}
              />
            </section>
            <section aria-labelledby="spouse-message-title" className="mt-6 rounded-[var(--radius-card)] bg-white p-5 shadow-card sm:p-6">
              <h2 id="spouse-message-title" className="text-xl font-semibold tracking-tight">
                Write to us
              </h2>
              <p className="mt-1 mb-4 text-ink-soft">Questions about the form, or you would like to sign electronically? Send us a message here.</p>
              <SpouseMessage action={page.pageUrl} posted={posted} />
            </section>
          </>
        ) : posted?.ok && posted.intent !== "message" ? (
          <>
            <h1 className="text-3xl font-bold tracking-tight">Thank you</h1>
            <div className="mt-6">
              <Alert tone="success">{posted.message}</Alert>
            </div>
          </>
        ) : (
          <>
            <h1 className="flex items-center gap-3 text-3xl font-bold tracking-tight">
              <FileSignature className="size-7 text-ink-muted" aria-hidden="true" />
              Signing link not valid
            </h1>
            <p className="mt-4 text-lg text-ink-soft">{RETURN_CLIENT_MESSAGES.badLink}</p>
          </>
        )}
      </Container>
    </main>
  );
}
