import { CAROUSEL, read, sel } from "./contract";
import type { CarouselState } from "./contract";
import { all, isKeyboardFocus, Listeners, one, setAttr, setOnDeep, showWhen } from "./dom";

const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";

/**
 * An auto-rotating carousel following the WAI-ARIA APG pattern, bound to server-rendered
 * markup:
 * - root `[data-carousel]` with `data-interval` (ms) and optionally `data-pause-on-hover`
 *   and `data-slide-animation` (slides move in from the side when they change);
 * - `[data-carousel-controls]` (made visible once bound), `[data-carousel-toggle]` with
 *   `data-label-pause` / `data-label-play` and icons `data-when="playing|paused"`,
 *   `[data-carousel-prev]`, `[data-carousel-next]`, dots `[data-carousel-dot]`,
 *   `[data-carousel-counter]`, `[data-carousel-progress]`;
 * - `[data-carousel-slides]` holding the `[data-carousel-slide]` elements (with `data-tint`
 *   for the progress colour and `data-on` / `data-off` state classes).
 *
 * Rotation stops while keyboard focus is inside, while the visitor has paused it, and (with
 * `data-pause-on-hover`) while the pointer is over it. Visitors who prefer reduced motion
 * start paused. Pausing keeps the time already spent; another slide or a click on a control
 * starts a full interval.
 */
export function bindCarousel(root: HTMLElement): () => void {
  const slides = all(root, sel(CAROUSEL.slide));
  const count = slides.length;
  if (count === 0) return () => {};
  const interval = Number(read(root, CAROUSEL.interval)) || 5_000;
  const pauseOnHover = root.hasAttribute(CAROUSEL.pauseOnHover);
  const animateSlides = root.hasAttribute(CAROUSEL.slideAnimation);
  const controls = one(root, sel(CAROUSEL.controls));
  const toggle = one<HTMLButtonElement>(root, sel(CAROUSEL.toggle));
  const dots = all<HTMLButtonElement>(root, sel(CAROUSEL.dot));
  const counter = one(root, sel(CAROUSEL.counter));
  const progress = one(root, sel(CAROUSEL.progress));
  const slidesBox = one(root, sel(CAROUSEL.slides));
  const progressAnimation = progress?.style.animationName || "taxbridge-progress";
  const motion = window.matchMedia(REDUCED_MOTION);
  const listeners = new Listeners();

  let index = 0;
  let userPlaying: boolean | null = null;
  let focusInside = false;
  let hovered = false;
  let remaining = interval;
  let timer: number | undefined;
  let startedAt = 0;

  const playing = () => userPlaying ?? !motion.matches;
  const rotating = () => playing() && !focusInside && !(pauseOnHover && hovered);

  function stopTimer(keepElapsed: boolean) {
    if (timer === undefined) return;
    window.clearTimeout(timer);
    timer = undefined;
    if (keepElapsed) remaining = Math.max(0, remaining - (Date.now() - startedAt));
  }

  function restartProgress() {
    if (!progress) return;
    // A new animation run: drop the old one, force a style flush, then set it again.
    progress.style.animationName = "none";
    void progress.offsetWidth;
    progress.style.animationName = progressAnimation;
  }

  function render() {
    const isPlaying = playing();
    const isRotating = rotating();
    slides.forEach((slide, i) => {
      const active = i === index;
      if (slide.inert === active) slide.inert = !active;
      setOnDeep(slide, active);
    });
    dots.forEach((dot, i) => {
      setAttr(dot, "aria-current", i === index ? "true" : null);
      setOnDeep(dot, i === index);
    });
    const position = `${index + 1} / ${count}`;
    if (counter && counter.textContent !== position) counter.textContent = position;
    if (toggle) {
      const label = read(toggle, isPlaying ? CAROUSEL.labelPause : CAROUSEL.labelPlay);
      if (label) setAttr(toggle, "aria-label", label);
      const state: CarouselState = isPlaying ? "playing" : "paused";
      showWhen(toggle, state);
    }
    if (progress) {
      const slide = slides[index];
      const tint = slide ? read(slide, CAROUSEL.tint) : undefined;
      if (tint) progress.style.backgroundColor = tint;
      progress.style.animationPlayState = isRotating ? "running" : "paused";
    }
    if (slidesBox) setAttr(slidesBox, "aria-live", isRotating ? "off" : "polite");
  }

  /** Starts or stops the countdown to match the current state, then redraws. */
  function sync() {
    if (rotating()) {
      if (timer === undefined) {
        startedAt = Date.now();
        timer = window.setTimeout(() => {
          timer = undefined;
          show(index + 1, 1);
        }, remaining);
      }
    } else {
      stopTimer(true);
    }
    render();
  }

  function show(next: number, direction: 1 | -1) {
    stopTimer(false);
    remaining = interval;
    index = ((next % count) + count) % count;
    if (animateSlides) {
      const slide = slides[index];
      if (slide) {
        slide.style.animation = "none";
        void slide.offsetWidth;
        slide.style.animation = "";
        slide.style.animationName = direction === 1 ? "taxbridge-slide-next" : "taxbridge-slide-previous";
        slide.style.animationDuration = "400ms";
        slide.style.animationTimingFunction = "ease-out";
      }
    }
    restartProgress();
    sync();
  }

  if (toggle) {
    listeners.on(toggle, "click", () => {
      userPlaying = !playing();
      sync();
    });
  }
  const prev = one(root, sel(CAROUSEL.prev));
  const next = one(root, sel(CAROUSEL.next));
  if (prev) listeners.on(prev, "click", () => show(index - 1, -1));
  if (next) listeners.on(next, "click", () => show(index + 1, 1));
  dots.forEach((dot, i) => listeners.on(dot, "click", () => show(i, i < index ? -1 : 1)));

  listeners.on(root, "focusin", (event) => {
    if (isKeyboardFocus(event.target)) {
      focusInside = true;
      sync();
    }
  });
  listeners.on(root, "focusout", (event) => {
    const to = event.relatedTarget;
    if (!(to instanceof Node) || !root.contains(to)) {
      focusInside = false;
      sync();
    }
  });
  listeners.on(root, "pointerenter", () => {
    hovered = true;
    sync();
  });
  listeners.on(root, "pointerleave", () => {
    hovered = false;
    sync();
  });
  const onMotionChange = () => sync();
  motion.addEventListener("change", onMotionChange);
  listeners.add(() => motion.removeEventListener("change", onMotionChange));

  const unbindImages = bindImageFallbacks(root);
  controls?.classList.remove("invisible");
  sync();

  return () => {
    stopTimer(false);
    listeners.removeAll();
    unbindImages();
  };
}

/**
 * Slides whose background photo fails to load show their gradient with an icon instead:
 * `img[data-hero-image]`, its `[data-hero-image-shade]` and `[data-hero-image-fallback]`
 * are siblings.
 */
export function bindImageFallbacks(root: HTMLElement): () => void {
  const listeners = new Listeners();
  for (const img of all<HTMLImageElement>(root, `img${sel(CAROUSEL.image)}`)) {
    const fail = () => {
      const parent = img.parentElement;
      if (!parent) return;
      one(parent, sel(CAROUSEL.imageShade))?.remove();
      const fallback = one(parent, sel(CAROUSEL.imageFallback));
      if (fallback) fallback.hidden = false;
      img.remove();
    };
    if (img.complete && img.naturalWidth === 0) fail();
    else listeners.on(img, "error", fail, { once: true });
  }
  return () => listeners.removeAll();
}
