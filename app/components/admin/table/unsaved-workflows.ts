import { useCallback, useEffect, useRef, useState } from "react";
import { useBlocker } from "react-router";
import type { BlockerFunction } from "react-router";

/** The question asked before unsaved workflow changes are thrown away. */
export const DISCARD_WORKFLOW_QUESTION =
  "You have workflow changes that are not saved. Leave them and lose the changes?";

export type UnsavedWorkflows = {
  /** The clients whose open workflow panel differs from what is saved. */
  dirty: ReadonlySet<string>;
  /** A panel says whether its ticks and assignee differ from the saved ones. */
  setDirty: (clientId: string, dirty: boolean) => void;
  /** Asks before `clientId`'s unsaved changes go (true: go ahead; no question when there are none). */
  confirmDiscard: (clientId: string) => boolean;
  /** The same for several clients at once: one question when any of them has unsaved changes. */
  confirmDiscardAny: (clientIds: Iterable<string>) => boolean;
  /** Counts the navigations staff chose not to make: what follows the URL is set back to it. */
  kept: number;
};

/**
 * Unsaved workflow changes on the client list are never lost without a question: leaving for
 * another page of the list, another search, filter, section or tax year, or another page of the
 * panel asks first (React Router's blocker; a form posted to the list itself, such as Save
 * Changes, goes through), and so does closing or reloading the tab (the browser's own question).
 */
export function useUnsavedWorkflows(): UnsavedWorkflows {
  const [dirty, setDirtySet] = useState<ReadonlySet<string>>(() => new Set());
  const [kept, setKept] = useState(0);
  // The source of truth, read when a navigation starts (which may come before React has
  // rendered the last change); the state mirrors it for rendering.
  const dirtyRef = useRef<ReadonlySet<string>>(dirty);

  const setDirty = useCallback((clientId: string, value: boolean) => {
    const current = dirtyRef.current;
    if (current.has(clientId) === value) return;
    const next = new Set(current);
    if (value) next.add(clientId);
    else next.delete(clientId);
    dirtyRef.current = next;
    setDirtySet(next);
  }, []);

  const confirmDiscard = useCallback((clientId: string) => {
    if (!dirtyRef.current.has(clientId)) return true;
    return window.confirm(DISCARD_WORKFLOW_QUESTION);
  }, []);

  const confirmDiscardAny = useCallback((clientIds: Iterable<string>) => {
    for (const id of clientIds)
      if (dirtyRef.current.has(id)) return window.confirm(DISCARD_WORKFLOW_QUESTION);
    return true;
  }, []);

  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) =>
      dirtyRef.current.size > 0 &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
    [],
  );
  const blocker = useBlocker(shouldBlock);

  useEffect(() => {
    if (blocker.state !== "blocked") return;
    if (window.confirm(DISCARD_WORKFLOW_QUESTION)) {
      // The panels close with the list they belong to; their changes go with them.
      const none = new Set<string>();
      dirtyRef.current = none;
      setDirtySet(none);
      blocker.proceed();
    } else {
      blocker.reset();
      setKept((n) => n + 1);
    }
  }, [blocker]);

  const anyDirty = dirty.size > 0;
  useEffect(() => {
    if (!anyDirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [anyDirty]);

  return { dirty, setDirty, confirmDiscard, confirmDiscardAny, kept };
}
