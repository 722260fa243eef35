import { useEffect } from "react";
import { CalendarPlus } from "lucide-react";
import { data, Form, redirect, useActionData, useLoaderData, useRevalidator } from "react-router";
import type { Route } from "./+types/season";
import { IntentSubmit } from "~/components/admin/case/intent-submit";
import { Button } from "~/components/ui/button";
import { Alert, inputClass } from "~/components/ui/field";
import { LocalTime } from "~/components/ui/local-time";
import { doneOf, isSeasonFilter, percentDone, SEASON_FILTER_LABELS, SEASON_FILTERS } from "~/domain/season";
import type { SeasonFilter } from "~/domain/season";
import { seo } from "~/seo";
import { NO_STORE, staffContext } from "~/server/auth/session.server";
import { countSeason, seasonRuns, seasonYears, startSeason } from "~/server/engagement/season.server";

// The season's start (/admin/season, admins only: domain/policy.ts): an admin opens the new tax
// year for a chosen set of last year's clients: each gets the year's case, its engagement letter
// and one e-mail (docs/product/engagement.md#the-seasons-start). The admin counts first, then
// confirms that number; the runs' progress is shown, and read again while one is under way.

export const meta: Route.MetaFunction = (args) => seo(args, { title: "Season's start", description: "Open the new tax year for last year's clients.", noindex: true });

export function headers() {
  return NO_STORE;
}

/** How often the page reads the progress again while a run is under way. */
const PROGRESS_EVERY_MS = 2_000;

export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const years = seasonYears();
  const year = Number(params.get("year"));
  const filter = params.get("filter");
  const chosen = years.includes(year) && isSeasonFilter(filter) ? { year, filter } : null;
  const [runs, count] = await Promise.all([seasonRuns(), chosen ? countSeason(chosen.year, chosen.filter) : null]);
  return data({ years, runs, count, started: params.get("started") === "1" }, { headers: NO_STORE });
}

type Answer = { errors: Record<string, string> };

export async function action({ request, context }: Route.ActionArgs) {
  const admin = context.get(staffContext);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return data<Answer>({ errors: { form: "The form could not be read. Reload the page and try again." } }, { status: 400, headers: NO_STORE });
  }
  const one = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  if (one("intent") !== "start") return data<Answer>({ errors: { form: "The form could not be read. Reload the page and try again." } }, { status: 400, headers: NO_STORE });
  const started = await startSeason(admin, { year: one("year"), filter: one("filter"), confirmed: one("confirmed") }, context.clientIp);
  if (!started.ok) return data<Answer>({ errors: started.errors }, { status: started.status, headers: NO_STORE });
  return redirect("/admin/season?started=1", { headers: NO_STORE });
}

const number = (n: number) => n.toLocaleString("en-US");

export default function SeasonStart() {
  const { years, runs, count, started } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const errors = result?.errors ?? {};
  const running = runs.some((run) => run.finishedAt === null);
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle" && document.visibilityState === "visible") void revalidator.revalidate();
    }, PROGRESS_EVERY_MS);
    return () => clearInterval(timer);
  }, [running, revalidator]);
  const year = count?.taxYear ?? years[0]!;
  const filter: SeasonFilter = count?.filter ?? "all";
  const toOpen = count ? count.chosen - count.hadYear : 0;

  return (
    <div className="space-y-6">
      <div className="flex items-center gap-3">
        <CalendarPlus className="size-6 text-primary-700" aria-hidden="true" />
        <h1 className="text-2xl font-bold tracking-tight text-ink">Season's start</h1>
      </div>
      <p className="max-w-3xl text-ink-soft">
        Open the new tax year for last year's clients. Each gets the year's case, its engagement letter, and one e-mail with a link to read it (no tax details). Clients who already have the year are left alone, and running it again sends nobody a second e-mail.
      </p>
      {started ? <Alert tone="success">The season's start is under way. Its progress shows below; the e-mails go out through the outbox.</Alert> : null}
      {errors.form ? <Alert tone="error">{errors.form}</Alert> : null}
      {errors.year || errors.filter ? <Alert tone="error">{errors.year ?? errors.filter}</Alert> : null}

      <section aria-labelledby="season-choose-title" className="rounded-2xl border border-line bg-white p-4 sm:p-6">
        <h2 id="season-choose-title" className="text-lg font-semibold text-ink">
          Which clients
        </h2>
        <Form method="get" className="mt-3 space-y-4">
          <div>
            <label htmlFor="season-year" className="mb-1.5 block text-sm font-medium text-ink">
              Tax year to open
            </label>
            <select id="season-year" name="year" defaultValue={String(year)} className={`${inputClass} border-line sm:max-w-xs`}>
              {years.map((y) => (
                <option key={y} value={y}>
                  {`${y} (for the clients of ${y - 1})`}
                </option>
              ))}
            </select>
          </div>
          <fieldset>
            <legend className="mb-1.5 text-sm font-medium text-ink">Last year's clients</legend>
            <div className="space-y-1">
              {SEASON_FILTERS.map((f) => (
                <label key={f} className="flex min-h-11 items-center gap-3 text-ink">
                  <input type="radio" name="filter" value={f} defaultChecked={f === filter} className="size-4 shrink-0 border-line text-primary-600" />
                  <span>{SEASON_FILTER_LABELS[f]}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <Button type="submit" variant="secondary" className="min-h-11 sm:min-h-0">
            Count the clients
          </Button>
        </Form>

        {count ? (
          <div className="mt-6 rounded-xl bg-surface p-4" data-testid="season-count">
            <p className="text-ink">
              {count.chosen === 0
                ? `No client of ${count.taxYear - 1} matches: there is nothing to open.`
                : `${number(count.chosen)} ${count.chosen === 1 ? "client" : "clients"} of ${count.taxYear - 1} ${count.chosen === 1 ? "matches" : "match"}. ${number(count.hadYear)} already ${count.hadYear === 1 ? "has" : "have"} ${count.taxYear} and ${count.hadYear === 1 ? "is" : "are"} left alone.`}
            </p>
            {toOpen > 0 ? (
              <Form method="post" className="mt-3 space-y-3">
                <input type="hidden" name="intent" value="start" />
                <input type="hidden" name="year" value={count.taxYear} />
                <input type="hidden" name="filter" value={count.filter} />
                <input type="hidden" name="confirmed" value={count.chosen} />
                {errors.confirmed ? <p className="text-sm font-medium text-red-700">{errors.confirmed}</p> : null}
                {running ? (
                  <p className="text-sm text-ink-muted">A season's start is still under way. Wait for it to finish before starting another.</p>
                ) : (
                  <IntentSubmit intent="start">{`Open ${count.taxYear} for ${number(toOpen)} ${toOpen === 1 ? "client" : "clients"}`}</IntentSubmit>
                )}
              </Form>
            ) : null}
          </div>
        ) : null}
      </section>

      <section aria-labelledby="season-runs-title" className="rounded-2xl border border-line bg-white p-4 sm:p-6">
        <h2 id="season-runs-title" className="text-lg font-semibold text-ink">
          Season's starts
        </h2>
        {runs.length === 0 ? (
          <p className="mt-2 text-ink-muted">None yet.</p>
        ) : (
          <ul className="mt-3 space-y-4">
            {runs.map((run) => {
              const done = doneOf(run.progress);
              const percent = percentDone(run.progress);
              return (
                <li key={run.id} className="rounded-xl border border-line p-4" data-testid="season-run">
                  <p className="font-semibold text-ink">{`Tax year ${run.taxYear}: ${SEASON_FILTER_LABELS[run.filter].toLowerCase()}`}</p>
                  <p className="text-sm text-ink-muted">
                    {"Started "}
                    <LocalTime iso={run.startedAt} />
                    {run.startedBy ? ` by ${run.startedBy}` : ""}
                    {". "}
                    {run.finishedAt ? (
                      <>
                        {"Finished "}
                        <LocalTime iso={run.finishedAt} />.
                      </>
                    ) : (
                      "Under way."
                    )}
                  </p>
                  <progress className="mt-3 h-2 w-full accent-primary-600" max={Math.max(run.progress.total, 1)} value={done} aria-label={`Tax year ${run.taxYear}: ${percent}% done`} />
                  <p className="mt-2 text-sm text-ink" data-testid="season-run-progress">
                    {`${number(done)} of ${number(run.progress.total)} clients done: ${number(run.progress.opened)} opened, each with a letter and an e-mail; ${number(run.progress.hadYear)} left alone (they had the year)`}
                    {run.progress.gone > 0 ? `; ${number(run.progress.gone)} left alone (account closed)` : ""}
                    {run.progress.failed > 0 ? `; ${number(run.progress.failed)} not opened after an error (a new run opens them)` : ""}.
                  </p>
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </div>
  );
}
