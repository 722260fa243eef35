import { ArrowRight, Check } from "lucide-react";
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from "~/components/ui/accordion";
import { ButtonLink } from "~/components/ui/button";
import { services } from "~/content/services";

/**
 * The services accordion: one item open at a time, and clicking the open item closes it.
 * The first service is open on arrival, so the page shows one full description even without
 * JavaScript; /services#<id> opens another (app/enhance/accordion.ts).
 */
export function ServicesAccordion() {
  const initial: string = services[0].id;
  return (
    <Accordion className="space-y-3">
      {services.map((service) => {
        const nameId = `service-${service.id}-name`;
        const open = service.id === initial;
        return (
          <AccordionItem key={service.id} value={service.id} open={open} className="scroll-mt-24">
            <AccordionTrigger
              value={service.id}
              open={open}
              aside={
                <span
                  className={`shrink-0 rounded-full px-3 py-1 text-sm font-semibold ${
                    service.price === "On quote"
                      ? "bg-accent-50 text-accent-700"
                      : "bg-primary-50 text-primary-800"
                  }`}
                >
                  {service.price}
                </span>
              }
            >
              <span id={nameId}>{service.name}</span>
            </AccordionTrigger>
            <AccordionContent value={service.id} open={open}>
              <div className="grid gap-6 md:grid-cols-[3fr_2fr] md:gap-10">
                <div>
                  <p className="max-w-[65ch] text-ink-soft">{service.description}</p>
                  <p className="mt-4 text-sm text-ink-muted">
                    Price:{" "}
                    <strong className="font-semibold text-ink">
                      {service.price === "On quote" ? "On quote, fixed before we start" : service.price}
                    </strong>
                  </p>
                </div>
                <div>
                  <h4 className="text-sm font-semibold tracking-wide text-ink uppercase">What&apos;s included</h4>
                  <ul className="mt-3 space-y-2">
                    {service.features.map((feature) => (
                      <li key={feature} className="flex gap-2 text-sm text-ink-soft">
                        <Check className="mt-0.5 size-4 shrink-0 text-primary-600" aria-hidden="true" />
                        <span>{feature}</span>
                      </li>
                    ))}
                  </ul>
                </div>
              </div>
              <div className="mt-6 flex flex-wrap gap-3">
                <ButtonLink to="/contact" aria-describedby={nameId}>
                  Get Started
                  <ArrowRight className="size-4" aria-hidden="true" />
                </ButtonLink>
                {"page" in service ? (
                  <ButtonLink to={service.page} variant="secondary">
                    Learn more<span className="sr-only"> about {service.name}</span>
                  </ButtonLink>
                ) : null}
              </div>
            </AccordionContent>
          </AccordionItem>
        );
      })}
    </Accordion>
  );
}
