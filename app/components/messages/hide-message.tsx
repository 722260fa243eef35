import { EyeOff } from "lucide-react";
import { useId } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";

/**
 * Hide, with a confirmation first: the summary opens the question and its button, which posts.
 * A disclosure, not a dialog: it works the same without JavaScript.
 */
export function HideMessageButton({
  messageId,
  fromClient,
  files,
}: {
  messageId: string;
  fromClient: boolean;
  files: number;
}) {
  const navigation = useNavigation();
  const hiding =
    navigation.state !== "idle" &&
    navigation.formData?.get("intent") === "hide" &&
    navigation.formData.get("messageId") === messageId;
  const questionId = useId();
  const consequence = fromClient
    ? "The client will no longer see their message here; their files stay in their documents."
    : files > 0
      ? `The client will no longer see this message, and ${files === 1 ? "its file is" : "its files are"} no longer shared with them.`
      : "The client will no longer see this message.";
  return (
    <details className="group">
      <summary className="inline-flex min-h-11 cursor-pointer list-none items-center gap-1.5 rounded-lg px-2 text-sm font-semibold text-ink-soft hover:bg-surface hover:text-ink sm:min-h-9 [&::-webkit-details-marker]:hidden">
        <EyeOff className="size-4" aria-hidden="true" />
        Hide
        <span className="sr-only"> this message from the client</span>
      </summary>
      <Form method="post" preventScrollReset className="mt-2 rounded-lg border border-accent-500 bg-accent-50 p-3">
        <p id={questionId} className="text-sm text-ink">
          {`Hide this message from the client? ${consequence} Staff still see it, marked hidden. This cannot be undone.`}
        </p>
        <input type="hidden" name="intent" value="hide" />
        <input type="hidden" name="messageId" value={messageId} />
        <Button
          type="submit"
          variant="secondary"
          size="sm"
          className="mt-2 min-h-11 sm:min-h-9"
          disabled={hiding}
          busy={hiding}
          aria-busy={hiding}
          aria-describedby={questionId}
        >
          {hiding ? "Hiding..." : "Hide from the client"}
        </Button>
      </Form>
    </details>
  );
}
