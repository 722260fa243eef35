import { useState, useSyncExternalStore } from "react";
import type { Dispatch, SetStateAction } from "react";

const subscribeToNothing = () => () => {};

/** False in the server's HTML and while React hydrates it; true once React runs the page in the browser. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}

/**
 * State that starts as `source` and is set back to it whenever `source` changes (the URL after
 * back/forward, for instance), while what the user changes in between stands. It is adjusted
 * during render, not in an effect: an effect also runs once after hydration, and would undo what
 * was typed or chosen in the moment between hydration and the effect.
 */
export function useFollowingState<T>(source: T): [T, Dispatch<SetStateAction<T>>] {
  const [state, setState] = useState(source);
  const [followed, setFollowed] = useState(source);
  if (!Object.is(followed, source)) {
    setFollowed(source);
    setState(source);
  }
  return [state, setState];
}
