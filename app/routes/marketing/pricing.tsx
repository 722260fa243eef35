import { ChevronDown, FileClock, ShieldCheck, Zap } from "lucide-react";
import type { ComponentType, SVGProps } from "react";
import { Link } from "react-router";
import type { Route } from "./+types/pricing";
import { PaymentSection } from "~/components/home/payment-section";
import { PricingPlanCard } from "~/components/marketing/pricing-plan-card";
import { ButtonLink } from "~/components/ui/button";
import { Container } from "~/components/ui/container";
import { addOns, plans, pricingFaq } from "~/content/plans";
import { seo } from "~/seo";

/** A public page: server-rendered, no React in the browser (docs/decisions/0008). */
export const handle = { hydrate: false };

export const meta: Route.MetaFunction = (args) =>
  seo(args, {
    title: "Pricing",
    description: `Clear fees for US tax filing: ${plans
      .map((p) => `${p.name} ${p.price} ${p.period}`)
      .join("; ")}. Add-ons for rush processing, audit protection and prior year returns.`,
  });

const addOnIcons: Record<(typeof addOns)[number]["id"], ComponentType<SVGProps<SVGSVGElement>>> = {
  "rush-processing": Zap,
  "audit-protection": ShieldCheck,
  "prior-year-returns": FileClock,
};

export default function Pricing() {
  return (
    <main id="main">
      <section className="border-b border-line bg-linear-to-b from-primary-50 to-white">
        <Container className="py-14 text-center sm:py-20">
          <p className="text-sm font-semibold tracking-wide text-primary-700 uppercase">Pricing</p>
          <h1 className="mx-auto mt-2 max-w-3xl text-4xl font-bold tracking-tight text-ink sm:text-5xl">
            Clear fees, agreed before we start
          </h1>
          <p className="mx-auto mt-5 max-w-[60ch] text-lg text-ink-soft">
            Choose the plan that fits your tax year. You see the fee before any work begins, and you pay only
            after you have reviewed the draft of your return.
          </p>
        </Container>
      </section>

      <section aria-labelledby="plans-heading" className="py-14 sm:py-20">
        <Container>
          <h2 id="plans-heading" className="sr-only">
            Plans
          </h2>
          <div className="grid items-stretch gap-6 md:grid-cols-2 xl:grid-cols-4">
            {plans.map((plan) => (
              <PricingPlanCard key={plan.id} plan={plan} />
            ))}
          </div>
          <p className="mt-6 text-center text-sm text-ink-muted">
            Prices are our fees in US dollars. Single services are listed with their prices on the{" "}
            <Link to="/services" className="font-medium text-primary-700 underline underline-offset-2">
              services page
            </Link>
            .
          </p>
        </Container>
      </section>

      <section aria-labelledby="addons-heading" className="bg-surface py-14 sm:py-20">
        <Container>
          <div className="mx-auto max-w-2xl text-center">
            <h2 id="addons-heading" className="text-3xl font-bold tracking-tight text-ink">
              Add-ons
            </h2>
            <p className="mt-3 text-ink-soft">Add any of these to a plan when you need them.</p>
          </div>
          <ul className="mt-10 grid gap-6 md:grid-cols-3">
            {addOns.map((addOn) => {
              const Icon = addOnIcons[addOn.id];
              return (
                <li
                  key={addOn.id}
                  id={addOn.id}
                  className="flex flex-col rounded-card border border-line bg-white p-6 shadow-card"
                >
                  <div className="flex items-start justify-between gap-4">
                    <span className="inline-flex size-11 items-center justify-center rounded-full bg-primary-50 text-primary-700">
                      <Icon className="size-5" aria-hidden="true" />
                    </span>
                    <p className="text-right">
                      <span className="text-2xl font-bold tracking-tight text-ink">{addOn.price}</span>
                      {"unit" in addOn ? (
                        <span className="block text-xs text-ink-muted">{addOn.unit}</span>
                      ) : null}
                    </p>
                  </div>
                  <h3 className="mt-4 text-lg font-semibold text-ink">
                    {addOn.name}
                    {"detail" in addOn ? (
                      <span className="block text-sm font-medium text-primary-700">({addOn.detail})</span>
                    ) : null}
                  </h3>
                  <p className="mt-2 text-sm text-ink-soft">{addOn.description}</p>
                </li>
              );
            })}
          </ul>
        </Container>
      </section>

      {/* The payment offer: its button leads a signed-in client to their fee (docs/product/public-site.md#payment-offer). */}
      <PaymentSection feeGrid={false} />

      <section aria-labelledby="faq-heading" className="py-14 sm:py-20">
        <Container className="max-w-[860px]">
          <h2 id="faq-heading" className="text-center text-3xl font-bold tracking-tight text-ink">
            Questions about fees
          </h2>
          <div className="mt-10 divide-y divide-line rounded-card border border-line bg-white shadow-card">
            {pricingFaq.map((item) => (
              <details key={item.question} className="group">
                <summary className="flex cursor-pointer list-none items-center justify-between gap-4 px-5 py-4 font-semibold text-ink hover:bg-surface sm:px-6 [&::-webkit-details-marker]:hidden">
                  {item.question}
                  <ChevronDown
                    className="size-5 shrink-0 text-primary-700 transition-transform group-open:rotate-180"
                    aria-hidden="true"
                  />
                </summary>
                <p className="max-w-[68ch] px-5 pb-5 text-ink-soft sm:px-6">{item.answer}</p>
              </details>
            ))}
          </div>
          <div className="mt-10 text-center">
            <p className="text-ink-soft">Still unsure? The first 30-minute consultation is free.</p>
            <div className="mt-4 flex flex-wrap justify-center gap-3">
              <ButtonLink to="/contact" size="lg">
                Contact us
              </ButtonLink>
              <ButtonLink to="/terms" variant="secondary" size="lg">
                Read the Terms of Service
              </ButtonLink>
            </div>
          </div>
        </Container>
      </section>
    </main>
  );
}
