import { useEffect, useRef, useState } from "react";
import type { ChangeEvent, MouseEvent } from "react";
import { useFetcher, useNavigate, useRevalidator } from "react-router";
import { plural } from "~/components/admin/format";
import { uploadFile } from "~/components/upload-file";
import { checkUploadName } from "~/domain/documents";
import type { DocumentCategoryKey } from "~/domain/documents";
import type { ManagedClient, PendingUpload, Refusal, RemoveResult } from "./types";

const DISCARD_QUESTION = "Discard the changes you have not saved?";

export type Notice = { tone: "success" | "error" | "warning"; text: string };

/**
 * The Document Management modal's unsaved changes. Picked files and removals wait in state until
 * Save Documents, which uploads the files one by one (with progress) and then posts the removals
 * to the page's action. Leaving with unsaved changes asks first.
 */
export function useDocumentChanges(client: ManagedClient, back: string) {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const removeFetcher = useFetcher<RemoveResult>();
  const nextId = useRef(1);

  const [pending, setPending] = useState<PendingUpload[]>([]);
  const [refusals, setRefusals] = useState<Refusal[]>([]);
  const [removals, setRemovals] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  // Whether the last save sent removals, so the fetcher's answer belongs to it.
  const [removalSent, setRemovalSent] = useState(false);
  const removal = removalSent && removeFetcher.state === "idle" ? removeFetcher.data : undefined;

  const dirty = pending.length > 0 || removals.length > 0;
  const uploadUrl = `/admin/clients/${client.id}/documents/upload?year=${client.taxYear}`;

  // Leaving the page (reload, closing the tab) with unsaved changes asks the browser's question.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  const mayLeave = () => !dirty || window.confirm(DISCARD_QUESTION);

  const close = () => {
    if (mayLeave()) navigate(back);
  };

  const onCloseLink = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!mayLeave()) event.preventDefault();
  };

  const pick = (category: DocumentCategoryKey, event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.currentTarget.files ?? []);
    event.currentTarget.value = "";
    const accepted: PendingUpload[] = [];
    const refused: Refusal[] = [];
    for (const file of files) {
      const localId = nextId.current++;
      const check = checkUploadName(file.name, file.size);
      if (check.ok) accepted.push({ localId, category, file, status: "waiting", progress: 0 });
      else refused.push({ localId, category, name: file.name, reason: check.reason });
    }
    setPending((p) => [...p, ...accepted]);
    setRefusals((r) => [...r, ...refused]);
    setNotice(null);
    setRemovalSent(false);
  };

  const update = (localId: number, change: Partial<PendingUpload>) =>
    setPending((p) => p.map((u) => (u.localId === localId ? { ...u, ...change } : u)));

  const save = async () => {
    if (saving || !dirty) return;
    setSaving(true);
    setNotice(null);
    let uploaded = 0;
    let refused = 0;
    let failed = 0;
    for (const item of pending) {
      update(item.localId, { status: "uploading", progress: 0, error: undefined });
      const result = await uploadFile(uploadUrl, item.category, item.file, (progress) =>
        update(item.localId, { progress }),
      );
      if (result.kind === "answer" && !result.body.error) {
        uploaded += result.body.uploaded.length;
        refused += result.body.refused.length;
        setRefusals((r) => [
          ...r,
          ...result.body.refused.map((x) => ({
            localId: nextId.current++,
            category: item.category,
            name: x.name,
            reason: x.reason,
          })),
        ]);
        setPending((p) => p.filter((u) => u.localId !== item.localId));
      } else {
        failed += 1;
        const message = result.kind === "answer" ? (result.body.error ?? "") : result.message;
        update(item.localId, { status: "failed", progress: 0, error: message });
      }
    }
    const removing = removals.length > 0;
    setRemovalSent(removing);
    if (removing) {
      const form = new FormData();
      form.append("intent", "remove");
      for (const id of removals) form.append("documentIds", id);
      // The fetcher's action is followed by a fresh load of the list; its answer shows below.
      await removeFetcher.submit(form, {
        method: "post",
        action: `/admin/clients/${client.id}/documents?year=${client.taxYear}`,
      });
      setRemovals([]);
    } else {
      await revalidator.revalidate();
    }
    setSaving(false);

    const problems: string[] = [];
    if (refused > 0)
      problems.push(
        `${plural(refused, "file was", "files were")} refused (the reason is shown under its category)`,
      );
    if (failed > 0)
      problems.push(`${plural(failed, "file was", "files were")} not sent: Save Documents tries again`);
    if (uploaded === 0 && problems.length === 0) {
      setNotice(null);
      return;
    }
    const text = [
      uploaded > 0 ? `${plural(uploaded, "file", "files")} uploaded.` : "",
      ...problems.map((p) => `${p}.`),
    ]
      .filter(Boolean)
      .join(" ");
    setNotice({ tone: problems.length === 0 ? "success" : uploaded > 0 ? "warning" : "error", text });
  };

  const toggleRemoval = (id: string) =>
    setRemovals((r) => (r.includes(id) ? r.filter((x) => x !== id) : [...r, id]));

  const dropPending = (localId: number) => setPending((p) => p.filter((u) => u.localId !== localId));

  const dismissRefusal = (localId: number) => setRefusals((r) => r.filter((x) => x.localId !== localId));

  return {
    pending,
    refusals,
    removals,
    saving,
    notice,
    removal,
    dirty,
    close,
    onCloseLink,
    pick,
    save,
    toggleRemoval,
    dropPending,
    dismissRefusal,
  };
}

export type DocumentChanges = ReturnType<typeof useDocumentChanges>;
