import { ArrowRight, CalendarCheck, MessageCircle } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/services";
import { ServicesAccordion } from "~/components/marketing/services-accordion";
import { ButtonLink } from "~/components/ui/button";
import { Container } from "~/components/ui/container";
import { business, figures } from "~/content/business";
import { services } from "~/content/services";
import { seo } from "~/seo";

/** A public page: server-rendered, no React in the browser (docs/decisions/0008). */
export const handle = { hydrate: false };

export const meta: Route.MetaFunction = (args) =>
  seo(args, {
    title: "Services and prices",
    description: `US tax services for visa holders and nonresidents, with clear prices: ${services
      .map((s) => `${s.name} ${s.price === "On quote" ? "(on quote)" : s.price}`)
      .join(", ")}.`,
  });

/** The services page's own figures (docs/product/public-site.md#services-page). */
const stats = [
  { value: figures.successRate, label: "Success rate" },
  { value: figures.averageRefund, label: "Average refund" },
  { value: figures.responseTime, label: "Response" },
] as const;

export default function Services() {
  return (
    <main id="main">
      <section className="border-b border-line bg-linear-to-b from-primary-50 to-white">
        <Container className="py-14 sm:py-20">
          <p className="text-sm font-semibold tracking-wide text-primary-700 uppercase">Services</p>
          <h1 className="mt-2 max-w-3xl text-4xl font-bold tracking-tight text-ink sm:text-5xl">
            US tax services for visa holders and nonresidents
          </h1>
          <p className="mt-5 max-w-[65ch] text-lg text-ink-soft">
            Eight services, each with a clear price. Open a service to see who needs it, what we do and what the
            fee includes. If you are not sure which one applies to you, ask us first: the first consultation is
            free.
          </p>
          <dl className="mt-10 grid max-w-2xl grid-cols-3 gap-3 sm:gap-4">
            {stats.map((stat) => (
              <div
                key={stat.label}
                className="flex flex-col-reverse rounded-card border border-line bg-white px-3 py-4 text-center shadow-card sm:px-5"
              >
                <dt className="mt-1 text-xs font-medium text-ink-muted sm:text-sm">{stat.label}</dt>
                <dd className="text-2xl font-bold tracking-tight text-primary-700 sm:text-3xl">{stat.value}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-3 text-xs text-ink-muted">
            Figures describe our past clients. Your own result depends on your situation.
          </p>
        </Container>
      </section>

      <section aria-labelledby="services-list" className="py-14 sm:py-20">
        <Container className="max-w-[960px]">
          <div className="flex flex-wrap items-end justify-between gap-4">
            <div>
              <h2 id="services-list" className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">
                Our services and prices
              </h2>
              <p className="mt-2 text-ink-soft">Prices are per service. Work on quote is priced before we start.</p>
            </div>
            <Link
              to="/pricing"
              className="inline-flex items-center gap-1 font-semibold text-primary-700 underline-offset-4 hover:underline"
            >
              See plans and add-ons
              <ArrowRight className="size-4" aria-hidden="true" />
            </Link>
          </div>
          <div className="mt-8">
            <ServicesAccordion />
          </div>
        </Container>
      </section>

      <section aria-labelledby="services-help" className="bg-surface py-14 sm:py-16">
        <Container className="max-w-[960px]">
          <div className="flex flex-col gap-6 rounded-card bg-ink p-6 text-white sm:p-10 md:flex-row md:items-center md:justify-between">
            <div>
              <h2 id="services-help" className="text-2xl font-bold tracking-tight">
                Not sure which service you need?
              </h2>
              <p className="mt-2 max-w-[55ch] text-slate-200">
                Tell us your visa, your income and where you hold accounts. We reply {business.responsePromise}{" "}
                and tell you which forms you need.
              </p>
            </div>
            <div className="flex flex-wrap gap-3">
              <ButtonLink to="/contact" variant="inverse" size="lg">
                <MessageCircle className="size-5" aria-hidden="true" />
                Contact us
              </ButtonLink>
              <Link
                to="/about"
                className="inline-flex items-center justify-center gap-2 rounded-lg border border-white/70 px-6 py-3 text-base font-semibold whitespace-nowrap text-white transition-colors hover:bg-white/10"
              >
                <CalendarCheck className="size-5" aria-hidden="true" />
                How it works
              </Link>
            </div>
          </div>
        </Container>
      </section>
    </main>
  );
}
