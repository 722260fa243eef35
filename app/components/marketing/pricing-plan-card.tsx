import { Check, Star, X } from "lucide-react";
import { ButtonLink } from "~/components/ui/button";
import { type Plan, type PlanColour, planButtonHref, planButtonLabel } from "~/content/plans";

/** Static class names per theme token, so Tailwind sees every one of them. */
const colourClasses: Record<PlanColour, { bar: string; text: string }> = {
  "ink-muted": { bar: "bg-ink-muted", text: "text-ink-muted" },
  "primary-600": { bar: "bg-primary-600", text: "text-primary-700" },
  "primary-800": { bar: "bg-primary-800", text: "text-primary-800" },
  ink: { bar: "bg-ink", text: "text-ink" },
};

export function PricingPlanCard({ plan }: { plan: Plan }) {
  const colour = colourClasses[plan.colour];
  const nameId = `plan-${plan.id}-name`;
  return (
    <article
      id={plan.id}
      aria-labelledby={nameId}
      className={`relative flex flex-col overflow-hidden rounded-card bg-white shadow-card ${
        plan.popular ? "border-2 border-primary-600" : "border border-line"
      }`}
    >
      <div className={`h-1.5 ${colour.bar}`} aria-hidden="true" />
      <div className="flex flex-1 flex-col p-6 xl:p-5">
        <div className={plan.popular ? "min-h-6" : "hidden min-h-6 md:block"}>
          {plan.popular ? (
            <p className="inline-flex items-center gap-1 rounded-full bg-primary-600 px-2.5 py-0.5 text-xs font-semibold text-white">
              <Star className="size-3" aria-hidden="true" />
              Most Popular
            </p>
          ) : null}
        </div>
        <h3 id={nameId} className={`mt-2 text-lg font-semibold ${colour.text}`}>
          {plan.name}
        </h3>
        <p className="mt-4">
          <span className="text-4xl font-bold tracking-tight text-ink">{plan.price}</span>
          <span className="mt-1 block text-sm text-ink-muted">{plan.period}</span>
        </p>
        <p className="mt-4 text-sm text-ink-soft">{plan.description}</p>

        <h4 className="mt-6 text-xs font-semibold tracking-wide text-ink uppercase">Included</h4>
        <ul className="mt-3 space-y-2">
          {plan.features.map((feature) => (
            <li key={feature} className="flex gap-2 text-sm text-ink-soft">
              <Check className="mt-0.5 size-4 shrink-0 text-primary-600" aria-hidden="true" />
              <span>{feature}</span>
            </li>
          ))}
        </ul>

        {plan.notIncluded.length > 0 ? (
          <>
            <h4 className="mt-5 text-xs font-semibold tracking-wide text-ink uppercase">Not included</h4>
            <ul className="mt-3 space-y-2">
              {plan.notIncluded.map((item) => (
                <li key={item} className="flex gap-2 text-sm text-ink-muted">
                  <X className="mt-0.5 size-4 shrink-0 text-ink-muted" aria-hidden="true" />
                  <span>{item}</span>
                </li>
              ))}
            </ul>
          </>
        ) : null}

        <div className="mt-auto pt-8">
          <ButtonLink
            to={planButtonHref}
            variant={plan.popular ? "primary" : "secondary"}
            // Narrower side padding keeps the longest label on one line in the four-column row.
            className="w-full px-3! text-center whitespace-normal!"
            aria-describedby={nameId}
          >
            {planButtonLabel(plan)}
          </ButtonLink>
        </div>
      </div>
    </article>
  );
}
