import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { Container } from "~/components/ui/container";
import { homeCallToAction } from "~/content/home";

/** Closing band: create an account or contact the firm. */
export function CallToAction() {
  return (
    <section aria-labelledby="cta-heading" className="bg-ink py-16 text-white sm:py-20">
      <Container className="flex flex-col items-start gap-8 lg:flex-row lg:items-center lg:justify-between">
        <div className="max-w-2xl">
          <h2 id="cta-heading" className="text-3xl font-bold tracking-tight sm:text-4xl">
            {homeCallToAction.title}
          </h2>
          <p className="mt-4 text-lg text-slate-200">{homeCallToAction.text}</p>
        </div>
        <div className="flex flex-wrap gap-3">
          <Link
            to={homeCallToAction.primary.to}
            className={buttonClass("inverse", "lg", "focus-visible:outline-white")}
          >
            {homeCallToAction.primary.label}
          </Link>
          <Link
            to={homeCallToAction.secondary.to}
            className={buttonClass(
              "ghost",
              "lg",
              "border border-white/70 text-white hover:bg-white/15 hover:text-white focus-visible:outline-white",
            )}
          >
            {homeCallToAction.secondary.label}
          </Link>
        </div>
      </Container>
    </section>
  );
}
