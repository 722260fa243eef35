import {
  ClipboardList,
  CreditCard,
  FileCheck,
  FilePen,
  FileText,
  FolderOpen,
  House,
  Send,
} from "lucide-react";
import type { LucideIcon } from "lucide-react";
import { stageLabel } from "~/domain/workflow";
import type { StageKey } from "~/domain/workflow";

/**
 * One palette for the eight stages (docs/product/look-and-voice.md#stage-colours): each stage has
 * its own hue and its own icon, and the badge always carries the stage's label, so colour is never
 * the only cue. Dark text (-800/-900) on a -50 tint keeps contrast well above 4.5:1.
 */
export const STAGE_STYLES: Record<StageKey, string> = {
  home: "border-slate-300 bg-slate-100 text-slate-800",
  taxinfo: "border-sky-300 bg-sky-50 text-sky-900",
  documents: "border-amber-300 bg-amber-50 text-amber-900",
  preparation: "border-violet-300 bg-violet-50 text-violet-800",
  draft: "border-rose-300 bg-rose-50 text-rose-800",
  payment: "border-teal-300 bg-teal-50 text-teal-900",
  efiling: "border-indigo-300 bg-indigo-50 text-indigo-800",
  finalcopies: "border-emerald-300 bg-emerald-50 text-emerald-800",
};

export const STAGE_ICONS: Record<StageKey, LucideIcon> = {
  home: House,
  taxinfo: FileText,
  documents: FolderOpen,
  preparation: ClipboardList,
  draft: FilePen,
  payment: CreditCard,
  efiling: Send,
  finalcopies: FileCheck,
};

/**
 * A client's current stage: its hue, its icon and its label (e.g. "DOCUMENTS"). `compact` is the
 * client list's size, where every column must fit beside the sidebar.
 */
export function StageBadge({
  stage,
  className = "",
  compact = false,
}: {
  stage: StageKey;
  className?: string;
  compact?: boolean;
}) {
  const Icon = STAGE_ICONS[stage];
  const size = compact ? "gap-1 px-2 py-0.5" : "gap-1.5 px-2.5 py-1 tracking-wide";
  return (
    <span
      className={`inline-flex shrink-0 items-center rounded-full border text-xs font-semibold whitespace-nowrap ${size} ${STAGE_STYLES[stage]} ${className}`}
    >
      <Icon className="size-3.5" aria-hidden="true" />
      {stageLabel(stage)}
    </span>
  );
}
