import type { Route } from "./+types/home";
import { CallToAction } from "~/components/home/call-to-action";
import { HeroCarousel } from "~/components/home/hero-carousel";
import { Highlights } from "~/components/home/highlights";
import { PaymentSection } from "~/components/home/payment-section";
import { ServicesShowcase } from "~/components/home/services-showcase";
import { TestimonialSection } from "~/components/home/testimonial-carousel";
import { ValueProposition } from "~/components/home/value-proposition";
import { business } from "~/content/business";
import { seo } from "~/seo";

/** A public page: server-rendered, no React in the browser (docs/decisions/0008). */
export const handle = { hydrate: false };

export const meta: Route.MetaFunction = (args) =>
  seo(args, {
    title: "US Tax Filing for Visa Holders and Non-Residents",
    description: business.description,
  });

export default function Home() {
  return (
    <main id="main">
      <HeroCarousel />
      <Highlights />
      <ServicesShowcase />
      <ValueProposition />
      <TestimonialSection />
      <PaymentSection />
      <CallToAction />
    </main>
  );
}
