import type { ReactNode } from "react";

/**
 * Content shown only in one state of an enhanced widget (e.g. the Play or the Pause icon):
 * app/enhance shows the `data-when` parts matching the widget's state and hides the others.
 * `shown` is the server-rendered (initial) state. The wrapper takes no box of its own.
 */
export function When({ state, shown, children }: { state: string; shown: boolean; children: ReactNode }) {
  return (
    <span data-when={state} hidden={!shown} className="contents">
      {children}
    </span>
  );
}
