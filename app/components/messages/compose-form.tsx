import { Send } from "lucide-react";
import { useId, useRef, useState } from "react";
import { Form, useNavigation } from "react-router";
import { Select } from "~/components/portal/select-field";
import { UPLOAD_ACCEPT } from "~/components/portal/document-uploader";
import { Button } from "~/components/ui/button";
import { Alert, Textarea } from "~/components/ui/field";
import { DOCUMENT_CATEGORIES } from "~/domain/documents";
import { DEFAULT_ATTACHMENT_CATEGORY, MAX_MESSAGE_LENGTH, MESSAGE_TEXTS, messageLength } from "~/domain/messages";
import type { MessageActionResult } from "~/domain/messages";

export type ComposeFormProps = {
  /** The text box's label. */
  label: string;
  /** Under the text box: who will read it. */
  hint: string;
  /** Whether files may be sent with the message; when not, `filesClosed` says why. */
  allowFiles: boolean;
  filesClosed?: string;
  /** What the attached files become. */
  filesHint: string;
  /** The action's answer to the last Send. */
  result?: Extract<MessageActionResult, { intent: "send" }>;
};

/**
 * Writing a message: the text, and optionally files (they become the case's documents). A plain
 * multipart form: it works without JavaScript; with it, the page stays and the message appears in
 * the conversation. A new form after each message sent (the caller keys it), so the box is empty.
 * The box takes a text longer than the limit (a paste is never cut short): the count under it
 * says how much too long it is, and Send is refused with that until it is shortened (the server
 * refuses it too).
 */
export function ComposeForm({ label, hint, allowFiles, filesClosed, filesHint, result }: ComposeFormProps) {
  const navigation = useNavigation();
  const sending = navigation.state !== "idle" && navigation.formData?.get("intent") === "send";
  const refused = result && !result.ok ? result : undefined;
  const [length, setLength] = useState(messageLength(refused?.body ?? ""));
  /** Send was pressed while the text was too long. */
  const [triedTooLong, setTriedTooLong] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  const over = Math.max(0, length - MAX_MESSAGE_LENGTH);
  const blocked = triedTooLong && over > 0;
  const ids = useId();
  const bodyId = `${ids}-body`;
  const hintId = `${ids}-hint`;
  const countId = `${ids}-count`;
  const errorId = `${ids}-error`;
  const filesId = `${ids}-files`;
  const filesHintId = `${ids}-files-hint`;
  const categoryId = `${ids}-category`;

  return (
    <Form
      method="post"
      encType="multipart/form-data"
      preventScrollReset
      className="space-y-4"
      onSubmit={(event) => {
        if (over === 0) return;
        event.preventDefault();
        setTriedTooLong(true);
        box.current?.focus();
      }}
    >
      <input type="hidden" name="intent" value="send" />
      <div>
        <label htmlFor={bodyId} className="mb-1.5 block text-sm font-medium text-ink">
          {label}
        </label>
        <Textarea
          id={bodyId}
          name="body"
          rows={5}
          ref={box}
          required
          defaultValue={refused?.body ?? ""}
          onChange={(event) => setLength(messageLength(event.currentTarget.value))}
          aria-invalid={refused || over > 0 ? true : undefined}
          aria-describedby={[refused || blocked ? errorId : null, hintId, countId].filter(Boolean).join(" ")}
        />
        <p id={hintId} className="mt-1 text-sm text-ink-muted">
          {hint}
        </p>
        <p
          id={countId}
          className={`mt-1 tabular-nums ${over > 0 ? "text-sm font-medium text-red-700" : "text-xs text-ink-muted"}`}
        >
          {over > 0
            ? MESSAGE_TEXTS.overBy(over)
            : `${length.toLocaleString("en-US")} of ${MAX_MESSAGE_LENGTH.toLocaleString("en-US")} characters`}
        </p>
      </div>

      {allowFiles ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="min-w-0">
            <label htmlFor={filesId} className="mb-1.5 block text-sm font-medium text-ink">
              Attach files (optional)
            </label>
            <input
              id={filesId}
              type="file"
              name="files"
              multiple
              accept={UPLOAD_ACCEPT}
              aria-describedby={filesHintId}
              className="block w-full min-w-0 text-sm text-ink-soft file:mr-3 file:min-h-11 file:cursor-pointer file:rounded-lg file:border file:border-primary-600 file:bg-white file:px-4 file:font-semibold file:text-primary-700 hover:file:bg-primary-50"
            />
          </div>
          <div className="min-w-0">
            <label htmlFor={categoryId} className="mb-1.5 block text-sm font-medium text-ink">
              File the attached files under
            </label>
            <Select id={categoryId} name="category" defaultValue={DEFAULT_ATTACHMENT_CATEGORY} className="min-h-11">
              {DOCUMENT_CATEGORIES.map((c) => (
                <option key={c.key} value={c.key}>
                  {c.label}
                </option>
              ))}
            </Select>
          </div>
          <p id={filesHintId} className="text-sm text-ink-muted sm:col-span-2">
            {`PDF, JPG, PNG, DOC or DOCX, up to 20 MB each. ${filesHint}`}
          </p>
        </div>
      ) : filesClosed ? (
        <p className="rounded-lg border border-line bg-surface px-4 py-3 text-sm text-ink-soft">{filesClosed}</p>
      ) : null}

      <div aria-live="polite" className="space-y-2 empty:hidden">
        {blocked ? (
          <div id={errorId}>
            <Alert tone="error">{MESSAGE_TEXTS.overBy(over)}</Alert>
          </div>
        ) : refused ? (
          <div id={errorId}>
            <Alert tone="error">{refused.message}</Alert>
          </div>
        ) : null}
        {refused?.refused && refused.refused.length > 0 ? (
          <ul className="space-y-1 text-sm font-medium text-red-800">
            {refused.refused.map((file, i) => (
              <li key={`${file.name}-${i}`} className="break-words">{`${file.name}: ${file.reason}.`}</li>
            ))}
          </ul>
        ) : null}
        {result?.ok ? <Alert tone="success">{result.message}</Alert> : null}
      </div>

      <Button type="submit" className="min-h-11" disabled={sending} busy={sending} aria-busy={sending}>
        {sending ? null : <Send className="size-4" aria-hidden="true" />}
        {sending ? "Sending..." : "Send message"}
      </Button>
    </Form>
  );
}
