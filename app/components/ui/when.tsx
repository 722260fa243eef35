import type { ReactNode } from "react";
import { attr, STATE } from "~/enhance/contract";
import type { WhenState } from "~/enhance/contract";

/**
 * Content shown only in one state of an enhanced widget (e.g. the Play or the Pause icon):
 * app/enhance shows the `data-when` parts matching the widget's state and hides the others.
 * `shown` is the server-rendered (initial) state. The wrapper takes no box of its own.
 */
export function When({ state, shown, children }: { state: WhenState; shown: boolean; children: ReactNode }) {
  return (
    <span {...attr(STATE.when, state)} hidden={!shown} className="contents">
      {children}
    </span>
  );
}
