import { FileSignature } from "lucide-react";
import { data, Form, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/engagement";
import { IntentSubmit } from "~/components/admin/case/intent-submit";
import { Alert, Textarea } from "~/components/ui/field";
import { LocalTime } from "~/components/ui/local-time";
import { TEMPLATE_FIELDS, TEMPLATE_MAX_LENGTH } from "~/domain/engagement";
import { seo } from "~/seo";
import { NO_STORE, staffContext } from "~/server/auth/session.server";
import { currentTemplates, letterRequired, saveTemplate, setLetterRequired } from "~/server/engagement/letters.server";

// The firm's engagement letter (/admin/engagement, admins only: domain/policy.ts): the template of
// each service, written here, each save a new version kept for good (docs/product/engagement.md),
// and whether a case's draft return waits for an accepted letter.

export const meta: Route.MetaFunction = (args) => seo(args, { title: "Engagement letter", description: "The firm's engagement letter templates.", noindex: true });

export function headers() {
  return NO_STORE;
}

export async function loader({ request }: Route.LoaderArgs) {
  const [templates, required] = await Promise.all([currentTemplates(), letterRequired()]);
  const done = new URL(request.url).searchParams.get("done");
  return data({ templates, required, done }, { headers: NO_STORE });
}

type Answer = { intent: string; service?: string; errors: Record<string, string>; body?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const admin = context.get(staffContext);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return data<Answer>({ intent: "unknown", errors: { form: "The form could not be read. Reload the page and try again." } }, { status: 400, headers: NO_STORE });
  }
  const one = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const intent = one("intent");
  if (intent === "save-template") {
    const service = one("service");
    const saved = await saveTemplate(admin, service, one("body"), context.clientIp);
    if (!saved.ok) return data<Answer>({ intent, service, errors: saved.errors, body: one("body") }, { status: saved.status, headers: NO_STORE });
    return redirect(`/admin/engagement?done=${encodeURIComponent(`saved:${service}:${saved.version}`)}`, { headers: NO_STORE });
  }
  if (intent === "set-required") {
    const on = form.getAll("required");
    if (on.length > 1 || (on.length === 1 && on[0] !== "on"))
      return data<Answer>({ intent, errors: { required: "Tick the box, or leave it empty." } }, { status: 400, headers: NO_STORE });
    await setLetterRequired(admin, on.length === 1, context.clientIp);
    return redirect("/admin/engagement?done=setting", { headers: NO_STORE });
  }
  return data<Answer>({ intent: "unknown", errors: { form: "The form could not be read. Reload the page and try again." } }, { status: 400, headers: NO_STORE });
}

function doneMessage(done: string | null, labels: Map<string, string>): string | null {
  if (done === "setting") return "The setting was saved.";
  const saved = /^saved:([a-z0-9-]+):(\d+)$/.exec(done ?? "");
  return saved && labels.has(saved[1]!) ? `Saved: ${labels.get(saved[1]!)}, version ${saved[2]}. New letters use it; letters already sent keep their text.` : null;
}

export default function EngagementTemplates() {
  const { templates, required, done } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const message = doneMessage(done, new Map(templates.map((t) => [t.service, t.label])));
  return (
    <div className="space-y-6">
      <div className="flex items-center gap-3">
        <FileSignature className="size-6 text-primary-700" aria-hidden="true" />
        <h1 className="text-2xl font-bold tracking-tight text-ink">Engagement letter</h1>
      </div>
      {message ? <Alert tone="success">{message}</Alert> : null}
      {result?.errors.form ? <Alert tone="error">{result.errors.form}</Alert> : null}

      <section aria-labelledby="engagement-setting-title" className="rounded-2xl border border-line bg-white p-4 sm:p-6">
        <h2 id="engagement-setting-title" className="text-lg font-semibold text-ink">
          Before the draft return
        </h2>
        <Form method="post" className="mt-3 space-y-3">
          <input type="hidden" name="intent" value="set-required" />
          <label htmlFor="engagement-required" className="flex min-h-11 items-start gap-3 text-ink">
            <input id="engagement-required" type="checkbox" name="required" defaultChecked={required} className="mt-1 size-4 shrink-0 rounded border-line text-primary-600" />
            <span>A case's draft return waits until the client has accepted the engagement letter.</span>
          </label>
          {result?.errors.required ? <p className="text-sm font-medium text-red-700">{result.errors.required}</p> : null}
          <IntentSubmit intent="set-required" variant="secondary">
            Save the setting
          </IntentSubmit>
        </Form>
      </section>

      <section aria-labelledby="engagement-fields-title" className="rounded-2xl border border-line bg-white p-4 sm:p-6">
        <h2 id="engagement-fields-title" className="text-lg font-semibold text-ink">
          Fields
        </h2>
        <p className="mt-1 text-sm text-ink-muted">Each letter fills these in for its client; the fee comes from the price list.</p>
        <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
          {Object.entries(TEMPLATE_FIELDS).map(([name, what]) => (
            <div key={name} className="contents">
              <dt className="font-mono text-ink">{`{{${name}}}`}</dt>
              <dd className="text-ink-soft">{what}</dd>
            </div>
          ))}
        </dl>
      </section>

      {templates.map((template) => {
        const mine = result?.intent === "save-template" && result.service === template.service;
        const id = `template-${template.service}`;
        return (
          <section key={template.service} aria-labelledby={`${id}-title`} className="rounded-2xl border border-line bg-white p-4 sm:p-6">
            <h2 id={`${id}-title`} className="text-lg font-semibold text-ink">
              {template.label}
            </h2>
            <p className="mt-1 text-sm text-ink-muted">
              {template.version === 0 ? (
                "The product's first text: not saved yet (the first letter sent saves it as version 1)."
              ) : (
                <>
                  {`Version ${template.version}, saved `}
                  <LocalTime iso={template.savedAt ?? ""} />
                  {template.savedBy ? ` by ${template.savedBy}` : ""}.
                </>
              )}
            </p>
            <Form method="post" noValidate className="mt-3 space-y-3">
              <input type="hidden" name="intent" value="save-template" />
              <input type="hidden" name="service" value={template.service} />
              <label htmlFor={`${id}-body`} className="sr-only">
                {`Template of ${template.label}`}
              </label>
              <Textarea
                id={`${id}-body`}
                name="body"
                rows={12}
                maxLength={TEMPLATE_MAX_LENGTH}
                defaultValue={mine && result.body !== undefined ? result.body : template.body}
                aria-invalid={mine && result.errors.body ? true : undefined}
                aria-describedby={mine && result.errors.body ? `${id}-error` : undefined}
                className="font-mono text-sm"
              />
              {mine && result.errors.body ? (
                <p id={`${id}-error`} className="text-sm font-medium text-red-700">
                  {result.errors.body}
                </p>
              ) : null}
              <IntentSubmit intent="save-template" name="service-button" value={template.service}>
                Save as a new version
              </IntentSubmit>
            </Form>
          </section>
        );
      })}
    </div>
  );
}
