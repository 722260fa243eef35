import { ChevronLeft, ChevronRight, Pause, Play } from "lucide-react";
import type { ReactNode } from "react";
import { When } from "~/components/ui/when";
import { attr, CAROUSEL, part, STATE } from "~/enhance/contract";

type Labels = {
  /** The rotation toggle's label while the slides turn, and while they are paused. */
  pause: string;
  play: string;
  previous: string;
  next: string;
};

/**
 * What sits between Previous and Next: a dot per slide (white, for a carousel over a picture)
 * or the "1 / n" counter.
 */
type Picker = { dots: readonly { key: string; label: string }[] } | { counter: number };

const dotOn = "w-7 bg-white";
const dotOff = "w-2.5 bg-white/60 group-hover:bg-white/90";

/**
 * A carousel's controls (WAI-ARIA APG carousel): the rotation toggle, Previous, the dots or the
 * counter, and Next, rendered with the first slide shown and turning. They stay invisible until
 * app/enhance/carousel.ts binds them: without JavaScript the slides do not turn and the controls
 * would do nothing. Place them before the slides (`slidesId`) in the reading order.
 */
export function CarouselControls({
  slidesId,
  labels,
  picker,
  buttonClass,
  className,
  stepsClassName,
  row,
  children,
}: {
  slidesId: string;
  labels: Labels;
  picker: Picker;
  /** The look of the round buttons. */
  buttonClass: string;
  /** The layout of the controls' box. */
  className: string;
  /** The layout of Previous, the dots or counter, and Next. */
  stepsClassName: string;
  /** Wraps the toggle and the steps (e.g. in the page's container). */
  row?: (buttons: ReactNode) => ReactNode;
  /** Shown after the buttons, inside the controls' box (e.g. a progress bar). */
  children?: ReactNode;
}) {
  const buttons = (
    <>
      <button
        type="button"
        className={buttonClass}
        aria-label={labels.pause}
        {...part(CAROUSEL.toggle)}
        {...attr(CAROUSEL.labelPause, labels.pause)}
        {...attr(CAROUSEL.labelPlay, labels.play)}
      >
        <When state="playing" shown>
          <Pause className="size-5" aria-hidden="true" />
        </When>
        <When state="paused" shown={false}>
          <Play className="size-5" aria-hidden="true" />
        </When>
      </button>
      <div className={stepsClassName}>
        <button
          type="button"
          className={buttonClass}
          aria-controls={slidesId}
          aria-label={labels.previous}
          {...part(CAROUSEL.prev)}
        >
          <ChevronLeft className="size-5" aria-hidden="true" />
        </button>
        {"dots" in picker ? (
          <div role="group" aria-label="Choose a slide" className="flex items-center">
            {picker.dots.map((dot, i) => (
              <button
                key={dot.key}
                type="button"
                className="group inline-flex size-11 items-center justify-center rounded-full focus-visible:outline-white"
                aria-controls={slidesId}
                aria-label={dot.label}
                aria-current={i === 0 ? "true" : undefined}
                {...part(CAROUSEL.dot)}
              >
                <span
                  className={`block h-2.5 rounded-full transition-all duration-300 motion-reduce:transition-none ${
                    i === 0 ? dotOn : dotOff
                  }`}
                  {...attr(STATE.on, dotOn)}
                  {...attr(STATE.off, dotOff)}
                  aria-hidden="true"
                />
              </button>
            ))}
          </div>
        ) : (
          <p
            className="min-w-16 text-center text-sm font-medium text-ink-soft tabular-nums"
            aria-hidden="true"
            {...part(CAROUSEL.counter)}
          >
            {`1 / ${picker.counter}`}
          </p>
        )}
        <button
          type="button"
          className={buttonClass}
          aria-controls={slidesId}
          aria-label={labels.next}
          {...part(CAROUSEL.next)}
        >
          <ChevronRight className="size-5" aria-hidden="true" />
        </button>
      </div>
    </>
  );
  return (
    <div className={`invisible ${className}`} {...part(CAROUSEL.controls)}>
      {row ? row(buttons) : buttons}
      {children}
    </div>
  );
}
