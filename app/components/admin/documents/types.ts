import type { DocumentCategoryKey } from "~/domain/documents";

/** The client whose documents Document Management shows, for one tax year. */
export type ManagedClient = { id: string; code: string; name: string; email: string; taxYear: number };

/** A saved document as the modal lists it. */
export type ManagedDocument = {
  id: string;
  name: string;
  size: number;
  /** ISO timestamp. */
  uploadedAt: string;
};

/** One category of the modal with its saved documents. */
export type ManagedDocumentGroup = { key: DocumentCategoryKey; label: string; documents: ManagedDocument[] };

/** A picked file waiting for Save Documents. */
export type PendingUpload = {
  localId: number;
  category: DocumentCategoryKey;
  file: File;
  status: "waiting" | "uploading" | "failed";
  /** 0..1 while uploading. */
  progress: number;
  error?: string;
};

/** A file refused in the browser or by the server, shown under its category until dismissed. */
export type Refusal = { localId: number; category: DocumentCategoryKey; name: string; reason: string };

/** The route's answer to a removal of saved documents. */
export type RemoveResult = { ok: boolean; removed: number; message: string };
