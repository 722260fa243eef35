import { useCallback, useEffect, useEffectEvent, useRef, useState, useSyncExternalStore } from "react";
import type { FocusEvent } from "react";

const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";

function subscribeReducedMotion(onChange: () => void): () => void {
  const query = window.matchMedia(REDUCED_MOTION);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** True when the visitor asked the system for less motion (false on the server). */
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribeReducedMotion,
    () => window.matchMedia(REDUCED_MOTION).matches,
    () => false,
  );
}

const noSubscription = () => () => {};

/** False on the server and during hydration, true once the page is interactive. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/**
 * Calls `onAdvance` after `interval` ms of active time. Pausing keeps the time already
 * spent; a new `resetKey` (another slide, a click on a control) starts a full interval.
 * The timer is cleared on every change and on unmount.
 */
function useAutoAdvance(active: boolean, interval: number, onAdvance: () => void, resetKey: string) {
  const remaining = useRef(interval);
  const advance = useEffectEvent(onAdvance);

  useEffect(() => {
    remaining.current = interval;
  }, [resetKey, interval]);

  useEffect(() => {
    if (!active) return;
    const startedAt = Date.now();
    const timer = window.setTimeout(() => {
      remaining.current = interval;
      advance();
    }, remaining.current);
    return () => {
      window.clearTimeout(timer);
      remaining.current = Math.max(0, remaining.current - (Date.now() - startedAt));
    };
  }, [active, interval, resetKey]);
}

/** Focus that came from the keyboard (a mouse click on a button is not :focus-visible). */
function isKeyboardFocus(target: EventTarget): boolean {
  if (!(target instanceof Element)) return false;
  try {
    return target.matches(":focus-visible");
  } catch {
    return true;
  }
}

/**
 * State for an auto-rotating carousel following the WAI-ARIA APG pattern: rotation stops
 * while keyboard focus is inside, while the visitor has paused it, and (optionally) while
 * the pointer is over it. Visitors who prefer reduced motion start paused.
 */
export function useCarousel({
  count,
  interval,
  pauseOnHover = false,
}: {
  count: number;
  interval: number;
  pauseOnHover?: boolean;
}) {
  const [index, setIndex] = useState(0);
  /** 1 when the last move went forward, -1 when it went back (for slide animations). */
  const [direction, setDirection] = useState<1 | -1>(1);
  const [restarts, setRestarts] = useState(0);
  const [userPlaying, setUserPlaying] = useState<boolean | null>(null);
  const [focusInside, setFocusInside] = useState(false);
  const [hovered, setHovered] = useState(false);
  const reducedMotion = usePrefersReducedMotion();
  const hydrated = useHydrated();

  const playing = userPlaying ?? !reducedMotion;
  const rotating = hydrated && playing && !focusInside && !(pauseOnHover && hovered);
  const resetKey = `${index}:${restarts}`;

  useAutoAdvance(
    rotating,
    interval,
    () => {
      setDirection(1);
      setIndex((i) => (i + 1) % count);
    },
    resetKey,
  );

  const goTo = useCallback(
    (next: number, towards?: 1 | -1) => {
      setDirection(towards ?? (next < index ? -1 : 1));
      setIndex(((next % count) + count) % count);
      setRestarts((n) => n + 1);
    },
    [count, index],
  );

  return {
    index,
    direction,
    /** Changes whenever the countdown starts again (for the progress bar). */
    resetKey,
    /** The visitor's play/pause choice (the rotation control's state). */
    playing,
    /** Whether slides are advancing right now. */
    rotating,
    hydrated,
    goTo,
    next: () => goTo(index + 1, 1),
    previous: () => goTo(index - 1, -1),
    togglePlaying: () => setUserPlaying(!playing),
    rootProps: {
      onFocus: (event: FocusEvent<HTMLElement>) => {
        if (isKeyboardFocus(event.target)) setFocusInside(true);
      },
      onBlur: (event: FocusEvent<HTMLElement>) => {
        const next = event.relatedTarget;
        if (!(next instanceof Node) || !event.currentTarget.contains(next)) setFocusInside(false);
      },
      onPointerEnter: () => setHovered(true),
      onPointerLeave: () => setHovered(false),
    },
  };
}
