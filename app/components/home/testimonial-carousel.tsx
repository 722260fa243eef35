import { BadgeCheck, Quote } from "lucide-react";
import { useId } from "react";
import { Container, SectionHeading } from "~/components/ui/container";
import { TESTIMONIAL_INTERVAL_MS, testimonialStats, testimonials } from "~/content/home";
import type { Testimonial } from "~/content/home";
import { HomeKeyframes } from "./home-keyframes";
import { StarRating } from "./star-rating";
import { StatList } from "./stat-list";
import { useEnhancement } from "~/components/use-enhancement";
import { bindCarousel } from "~/enhance/carousel";
import { attr, CAROUSEL, part, STATE, widget } from "~/enhance/contract";
import { CarouselControls } from "./carousel-controls";

const controlClass =
  "inline-flex size-11 shrink-0 items-center justify-center rounded-full border border-line bg-white text-ink shadow-sm transition-colors hover:bg-primary-50 hover:text-primary-700";

function TestimonialCard({ testimonial }: { testimonial: Testimonial }) {
  return (
    <figure className="flex h-full flex-col rounded-card border border-line bg-white p-6 shadow-card sm:p-8">
      <div className="flex items-start justify-between gap-4">
        <StarRating rating={testimonial.rating} />
        <Quote className="size-8 shrink-0 text-primary-200" aria-hidden="true" />
      </div>
      <blockquote className="mt-4 flex-1 text-lg leading-relaxed text-ink sm:text-xl">
        <p>{testimonial.text}</p>
      </blockquote>
      <figcaption className="mt-6 flex flex-wrap items-center gap-x-4 gap-y-2 border-t border-line pt-5">
        <span
          className="inline-flex size-12 shrink-0 items-center justify-center rounded-full bg-primary-700 text-base font-bold text-white"
          aria-hidden="true"
        >
          {testimonial.avatar}
        </span>
        <span className="min-w-0 flex-1">
          <span className="block font-semibold text-ink">{testimonial.name}</span>
          <span className="block text-sm text-ink-muted">{testimonial.detail}</span>
        </span>
        {testimonial.verified ? (
          <span className="inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2.5 py-1 text-xs font-semibold text-emerald-800 ring-1 ring-emerald-200">
            <BadgeCheck className="size-4" aria-hidden="true" />
            Verified
          </span>
        ) : null}
      </figcaption>
    </figure>
  );
}

/**
 * Client testimonials: one at a time, advancing every 5 seconds and wrapping around.
 * Rotation pauses while the pointer is over the carousel, while keyboard focus is inside
 * it, and when the visitor presses pause. Rendered in its initial state;
 * app/enhance/carousel.ts makes it turn.
 */
export function TestimonialSection() {
  const slidesId = useId();
  const ref = useEnhancement<HTMLDivElement>(bindCarousel);

  return (
    <section aria-labelledby="testimonials-heading" className="overflow-x-clip bg-surface py-16 sm:py-20">
      <HomeKeyframes />
      <Container>
        <SectionHeading
          id="testimonials-heading"
          overline="Client stories"
          title="What our clients say"
          lead="People on student, work and exchange visas, and green card holders, on working with us."
        />
        <div className="mt-12 grid grid-cols-[minmax(0,1fr)] items-center gap-10 lg:grid-cols-[minmax(0,1fr)_minmax(0,22rem)]">
          <div
            ref={ref}
            role="region"
            aria-roledescription="carousel"
            aria-label="Client testimonials"
            className="mx-auto flex w-full max-w-3xl flex-col-reverse gap-6"
            {...widget("carousel")}
            {...attr(CAROUSEL.interval, TESTIMONIAL_INTERVAL_MS)}
            {...part(CAROUSEL.pauseOnHover)}
            {...part(CAROUSEL.slideAnimation)}
          >
            {/* Controls come first in the reading order (APG) and show below the card. */}
            <CarouselControls
              slidesId={slidesId}
              labels={{
                pause: "Pause testimonials",
                play: "Play testimonials",
                previous: "Previous testimonial",
                next: "Next testimonial",
              }}
              picker={{ counter: testimonials.length }}
              buttonClass={controlClass}
              className="flex items-center justify-center gap-3"
              stepsClassName="flex items-center gap-3"
            />
            <div id={slidesId} className="grid" aria-live="polite" {...part(CAROUSEL.slides)}>
              {testimonials.map((testimonial, i) => (
                <div
                  key={testimonial.name}
                  role="group"
                  aria-roledescription="slide"
                  aria-label={`${i + 1} of ${testimonials.length}`}
                  inert={i !== 0}
                  {...part(CAROUSEL.slide)}
                  {...attr(STATE.on, "visible")}
                  {...attr(STATE.off, "invisible")}
                  // A slide in, never a fade: the text keeps its full contrast at every moment.
                  className={`col-start-1 row-start-1 ${i === 0 ? "visible" : "invisible"}`}
                >
                  <TestimonialCard testimonial={testimonial} />
                </div>
              ))}
            </div>
          </div>
          <StatList stats={testimonialStats} className="grid-cols-2 sm:grid-cols-4 lg:grid-cols-2" />
        </div>
      </Container>
    </section>
  );
}
