import { Download, UserPlus } from "lucide-react";
import { useState } from "react";
import { useRouteLoaderData } from "react-router";
import type { loader as panelLoader } from "~/routes/admin/layout";
import { Button, buttonClass } from "~/components/ui/button";
import { adminQueryString } from "~/domain/admin";
import type { AdminQuery } from "~/domain/admin";
import { stageLabel } from "~/domain/workflow";
import { AddClientModal } from "./add-client-modal";
import type { AddClientResult } from "./add-client-modal";

export type AdminHeaderProps = {
  query: AdminQuery;
  /** The action's answer to the last "add-client" post (useActionData), if any. */
  addClientResult?: AddClientResult;
};

/**
 * The page title ("Client Management" on HOME, else the section's label), the tax year shown,
 * and the two header buttons (the export is of the list on screen: its year, section and filters).
 */
export function AdminHeader({ query, addClientResult }: AdminHeaderProps) {
  const [open, setOpen] = useState(false);
  // A result already on screen when the dialog is opened again belongs to the previous visit: hide it.
  const [staleResult, setStaleResult] = useState<AddClientResult>(undefined);
  // The export is for the roles the policy allows it (domain/policy.ts), as the panel's layout says.
  const mayExport = useRouteLoaderData<typeof panelLoader>("routes/admin/layout")?.areas.includes("export") ?? false;
  const title = query.section === "home" ? "Client Management" : stageLabel(query.section);
  const lead =
    query.section === "home"
      ? `Tax year ${query.year}: every client, their filing stage, assignee and documents.`
      : `Tax year ${query.year}: clients whose current stage is ${stageLabel(query.section)}.`;

  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">{title}</h1>
        <p className="mt-1 text-ink-soft">{lead}</p>
      </div>
      <div className="flex flex-wrap gap-3">
        {mayExport ? (
          <a
            href={`/admin/clients.csv${adminQueryString(query, { page: 1 })}`}
            download
            className={buttonClass("secondary", "md", "min-h-11 sm:min-h-0")}
          >
            <Download className="size-4" aria-hidden="true" />
            Export Data
          </a>
        ) : null}
        <Button
          type="button"
          className="min-h-11 sm:min-h-0"
          aria-haspopup="dialog"
          onClick={() => {
            setStaleResult(addClientResult);
            setOpen(true);
          }}
        >
          <UserPlus className="size-4" aria-hidden="true" />
          Add New Client
        </Button>
      </div>
      <AddClientModal
        open={open}
        onClose={() => setOpen(false)}
        result={addClientResult !== staleResult ? addClientResult : undefined}
      />
    </div>
  );
}
