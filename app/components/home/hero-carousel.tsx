import { Check } from "lucide-react";
import { useId } from "react";
import { Link } from "react-router";
import { Container } from "~/components/ui/container";
import { buttonClass } from "~/components/ui/button";
import { HERO_INTERVAL_MS, heroSlides } from "~/content/home";
import type { HeroSlide } from "~/content/home";
import { HeroArt, HeroFallbackIcon, heroGradient } from "./hero-art";
import { HomeKeyframes } from "./home-keyframes";
import { useEnhancement } from "~/components/use-enhancement";
import { bindCarousel } from "~/enhance/carousel";
import { attr, CAROUSEL, part, STATE, widget } from "~/enhance/contract";
import { CarouselControls } from "./carousel-controls";

const controlClass =
  "inline-flex size-11 shrink-0 items-center justify-center rounded-full border border-white/50 bg-white/10 text-white transition-colors hover:bg-white/25 focus-visible:outline-white";

/**
 * A slide's background picture, at every width. If it fails to load, the enhancement removes it
 * and its shade and shows the slide's gradient (underneath) with the slide's icon instead.
 */
function SlideBackground({ slide, first }: { slide: HeroSlide; first: boolean }) {
  return (
    <div className="absolute inset-0 -z-10 overflow-hidden" aria-hidden="true">
      <img
        src={slide.image}
        alt=""
        width={1600}
        height={900}
        decoding="async"
        fetchPriority={first ? "high" : "low"}
        {...part(CAROUSEL.image)}
        className="size-full object-cover object-right"
      />
      {/* Keeps the white text readable where it crosses the picture's lines. */}
      <div
        {...part(CAROUSEL.imageShade)}
        className="absolute inset-0 bg-ink/45 md:bg-transparent md:bg-linear-to-r md:from-ink/70 md:via-ink/25 md:to-transparent"
      />
      <div {...part(CAROUSEL.imageFallback)} hidden className="absolute top-4 right-4 sm:top-8 sm:right-8">
        <HeroFallbackIcon kind={slide.art} accent={slide.accent} />
      </div>
    </div>
  );
}

const slideOn = "visible opacity-100";
const slideOff = "invisible opacity-0";

function Slide({ slide, position, active }: { slide: HeroSlide; position: number; active: boolean }) {
  const Title = position === 0 ? "h1" : "h2";
  return (
    <div
      role="group"
      aria-roledescription="slide"
      aria-label={`${position + 1} of ${heroSlides.length}`}
      inert={!active}
      {...part(CAROUSEL.slide)}
      {...attr(CAROUSEL.tint, slide.accent.tint)}
      {...attr(STATE.on, slideOn)}
      {...attr(STATE.off, slideOff)}
      className={`relative isolate col-start-1 row-start-1 transition-[opacity,visibility] duration-500 ease-out motion-reduce:transition-none ${
        active ? slideOn : slideOff
      }`}
    >
      <div
        className="absolute inset-0 -z-20"
        style={{ backgroundImage: heroGradient(slide.accent) }}
        aria-hidden="true"
      />
      <SlideBackground slide={slide} first={position === 0} />
      <Container className="grid grid-cols-[minmax(0,1fr)] items-center gap-10 pt-14 pb-36 sm:pt-20 md:grid-cols-[minmax(0,1fr)_minmax(0,18rem)] lg:grid-cols-[minmax(0,1fr)_minmax(0,25rem)] lg:pt-24 lg:pb-40">
        <div
          {...attr(STATE.on, "translate-x-0")}
          {...attr(STATE.off, "translate-x-6")}
          className={`transition-transform duration-500 ease-out motion-reduce:transition-none ${
            active ? "translate-x-0" : "translate-x-6"
          }`}
        >
          <p
            className="inline-flex rounded-full border px-3 py-1 text-sm font-semibold"
            style={{ color: slide.accent.tint, borderColor: `${slide.accent.tint}80` }}
          >
            {slide.eyebrow}
          </p>
          <Title className="mt-5 max-w-[22ch] text-3xl font-bold tracking-tight text-white sm:text-4xl lg:text-5xl">
            {slide.title}
          </Title>
          <p className="mt-5 max-w-[60ch] text-base text-white sm:text-lg">{slide.subtitle}</p>
          <ul className="mt-6 grid max-w-2xl gap-x-6 gap-y-3 sm:grid-cols-2">
            {slide.features.map((feature) => (
              <li key={feature} className="flex items-start gap-3 text-sm text-white sm:text-base">
                <span
                  className="mt-0.5 inline-flex size-5 shrink-0 items-center justify-center rounded-full text-ink"
                  style={{ backgroundColor: slide.accent.tint }}
                  aria-hidden="true"
                >
                  <Check className="size-3.5" strokeWidth={3} />
                </span>
                {feature}
              </li>
            ))}
          </ul>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link to="/signup" className={buttonClass("inverse", "lg", "focus-visible:outline-white")}>
              Get Started
            </Link>
            <Link
              to="/contact"
              className={buttonClass(
                "ghost",
                "lg",
                "border border-white/70 text-white hover:bg-white/15 hover:text-white focus-visible:outline-white",
              )}
            >
              Book a free consultation
            </Link>
          </div>
        </div>
        <div className="hidden md:block">
          <HeroArt kind={slide.art} accent={slide.accent} />
        </div>
      </Container>
    </div>
  );
}

/**
 * The home hero: three slides that advance every 30 seconds and wrap around, with a
 * rotation control, previous/next arrows, dots and a progress bar (WAI-ARIA APG carousel).
 * Rendered in its initial state; app/enhance/carousel.ts makes it turn.
 */
export function HeroCarousel() {
  const slidesId = useId();
  const ref = useEnhancement<HTMLElement>(bindCarousel);
  const first = heroSlides[0];

  return (
    <section
      ref={ref}
      aria-roledescription="carousel"
      aria-label="Our main services"
      className="relative isolate overflow-hidden bg-ink text-white"
      {...widget("carousel")}
      {...attr(CAROUSEL.interval, HERO_INTERVAL_MS)}
    >
      <HomeKeyframes />
      {/* Controls come first in the reading order (APG), and sit at the bottom of the hero. */}
      <CarouselControls
        slidesId={slidesId}
        labels={{
          pause: "Pause slide rotation",
          play: "Start slide rotation",
          previous: "Previous slide",
          next: "Next slide",
        }}
        picker={{
          dots: heroSlides.map((slide, i) => ({ key: slide.id, label: `Slide ${i + 1}: ${slide.eyebrow}` })),
        }}
        buttonClass={controlClass}
        className="absolute inset-x-0 bottom-0 z-10"
        stepsClassName="flex items-center gap-1 sm:gap-2"
        row={(buttons) => (
          <Container className="flex items-center justify-between gap-3 pb-6">{buttons}</Container>
        )}
      >
        <div className="h-1 w-full bg-white/20" aria-hidden="true">
          <div
            className="h-full w-full origin-left"
            {...part(CAROUSEL.progress)}
            style={{
              backgroundColor: first?.accent.tint,
              transform: "scaleX(0)",
              animationName: "taxbridge-progress",
              animationDuration: `${HERO_INTERVAL_MS}ms`,
              animationTimingFunction: "linear",
              animationFillMode: "forwards",
              animationPlayState: "paused",
            }}
          />
        </div>
      </CarouselControls>

      <div id={slidesId} className="grid" aria-live="polite" {...part(CAROUSEL.slides)}>
        {heroSlides.map((slide, i) => (
          <Slide key={slide.id} slide={slide} position={i} active={i === 0} />
        ))}
      </div>
    </section>
  );
}
