import { NotebookPen } from "lucide-react";
import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Alert, Textarea } from "~/components/ui/field";
import { LocalTime } from "~/components/ui/local-time";
import type { CaseNote } from "~/domain/cases";
import { MAX_NOTE_LENGTH } from "~/domain/cases";
import { CaseSection } from "./case-section";

export type NoteResult = { ok: true; message: string } | { ok: false; message: string; body: string };

/** Internal notes: for staff only, never part of anything the client is sent. Oldest first, as a conversation reads. */
export function NotesSection({ notes, result }: { notes: readonly CaseNote[]; result?: NoteResult }) {
  return (
    <CaseSection
      id="notes"
      title="Internal notes"
      icon={<NotebookPen className="size-5" aria-hidden="true" />}
      lead="Only staff see these notes. The client never does."
    >
      {notes.length === 0 ? (
        <p className="text-ink-soft">No notes yet.</p>
      ) : (
        <ol className="space-y-3">
          {notes.map((note) => (
            <li key={note.id} className="rounded-xl border border-line bg-surface p-3">
              <p className="text-sm text-ink-muted">
                <span className="font-semibold text-ink">{note.author ?? "A former staff member"}</span> ·{" "}
                <LocalTime iso={note.createdAt} />
              </p>
              <p className="mt-1 whitespace-pre-wrap break-words text-ink">{note.body}</p>
            </li>
          ))}
        </ol>
      )}
      {/* A new form after each note added, so the box is empty again. */}
      <NoteForm key={notes.length} result={result} />
    </CaseSection>
  );
}

function NoteForm({ result }: { result?: NoteResult }) {
  const navigation = useNavigation();
  const adding = navigation.state !== "idle" && navigation.formData?.get("intent") === "add-note";
  const refused = result && !result.ok ? result : undefined;
  const [length, setLength] = useState(refused?.body.length ?? 0);
  const errorId = "note-error";
  const countId = "note-count";
  return (
    <Form method="post" preventScrollReset className="mt-5 space-y-3">
      <input type="hidden" name="intent" value="add-note" />
      <div>
        <label htmlFor="note-body" className="mb-1.5 block text-sm font-medium text-ink">
          Add a note
        </label>
        <Textarea
          id="note-body"
          name="body"
          rows={4}
          maxLength={MAX_NOTE_LENGTH}
          defaultValue={refused?.body ?? ""}
          onChange={(event) => setLength(event.currentTarget.value.length)}
          aria-invalid={refused ? true : undefined}
          aria-describedby={refused ? `${errorId} ${countId}` : countId}
        />
        <p id={countId} className="mt-1 text-xs text-ink-muted tabular-nums">
          {`${length.toLocaleString("en-US")} of ${MAX_NOTE_LENGTH.toLocaleString("en-US")} characters`}
        </p>
        {refused ? (
          <p id={errorId} className="mt-1 text-sm font-medium text-red-700">
            {refused.message}
          </p>
        ) : null}
      </div>
      {result?.ok ? <Alert tone="success">{result.message}</Alert> : null}
      <Button type="submit" className="min-h-11 sm:min-h-0" disabled={adding} busy={adding} aria-busy={adding}>
        Add note
      </Button>
    </Form>
  );
}
