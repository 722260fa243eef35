import { Button } from "./button";
import { Spinner } from "./spinner";
import { When } from "./when";
import { attr, part, SUBMIT } from "~/enhance/contract";

/**
 * The submit button of a form that app/enhance sends in place: `submitButton()` in
 * app/enhance/dom.ts disables it, shows the spinner and swaps `label` for `busyLabel` while the
 * form is being sent. Without JavaScript it is a plain submit button.
 */
export function SubmitButton({ label, busyLabel }: { label: string; busyLabel: string }) {
  return (
    <Button
      type="submit"
      size="lg"
      className="w-full sm:w-auto"
      {...part(SUBMIT.button)}
      {...attr(SUBMIT.busyLabel, busyLabel)}
    >
      <When state="busy" shown={false}>
        <Spinner className="size-4" />
      </When>
      <span {...part(SUBMIT.label)}>{label}</span>
    </Button>
  );
}
