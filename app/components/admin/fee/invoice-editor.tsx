import { Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { Form } from "react-router";
import { useHydrated } from "~/components/hooks";
import { Button } from "~/components/ui/button";
import { Input, Textarea } from "~/components/ui/field";
import { priceList } from "~/content/price-list";
import type { PriceListGroup } from "~/content/price-list";
import type { InvoiceInput } from "~/domain/fee-section";
import { centsToInput, formatUsd, invoiceTotals, MAX_INVOICE_LINES, MAX_INVOICE_NOTES, MAX_LINE_DESCRIPTION, MAX_QUANTITY, parseUsd } from "~/domain/fees";
import type { FeeActionResult } from "./fee-form-parts";
import { labelClass, Refusal, selectClass, Submit } from "./fee-form-parts";

type Line = { key: number; item: string; description: string; quantity: string; unit: string };

const GROUPS: readonly PriceListGroup[] = ["Plans", "Add-ons", "Services", "ITIN applications"];
/** Lines offered empty before the page's script runs: a form that works without it. */
const BLANK_LINES_WITHOUT_SCRIPT = 3;

let nextKey = 0;
const lineOf = (l: Partial<Omit<Line, "key">>): Line => ({ key: (nextKey += 1), item: "", description: "", quantity: "1", unit: "", ...l });

/** The total the lines and discount come to as typed, or null while something is not an amount. */
function totalOf(lines: Line[], discount: string): number | null {
  const parsed = lines.map((l) => ({ quantity: Number(l.quantity), unitCents: parseUsd(l.unit) }));
  if (parsed.some((l) => l.unitCents === null || !Number.isInteger(l.quantity) || l.quantity < 1)) return null;
  const discountCents = discount.trim() === "" ? 0 : parseUsd(discount);
  if (discountCents === null) return null;
  return invoiceTotals(parsed as Array<{ quantity: number; unitCents: number; description: string }>, discountCents).totalCents;
}

/**
 * The invoice form (docs/product/fees.md#invoices): lines taken from the firm's price list or
 * written freely, each editable (description, quantity, unit price), a discount, notes and a due
 * date; "Save draft" or "Save and send". With the page's script, lines are added and removed in
 * place; without it, blank lines are offered and those left empty are ignored.
 */
export function InvoiceEditor({
  idPrefix,
  intent,
  invoiceId,
  initial,
  today,
  refused,
}: {
  idPrefix: string;
  intent: "create-invoice" | "update-invoice";
  invoiceId?: string;
  initial: InvoiceInput;
  today: string;
  refused?: FeeActionResult;
}) {
  const hydrated = useHydrated();
  const start = refused?.invoice ?? initial;
  const [lines, setLines] = useState<Line[]>(() =>
    start.lines.map((l) => lineOf({ item: l.priceListId ?? "", description: l.description, quantity: l.quantity, unit: l.unitCents })),
  );
  const [discount, setDiscount] = useState(start.discountCents ?? "");
  const [choice, setChoice] = useState("");
  const shown = hydrated ? lines : [...lines, ...Array.from({ length: BLANK_LINES_WITHOUT_SCRIPT }, () => lineOf({}))];
  const total = totalOf(lines, discount);
  const change = (key: number, patch: Partial<Line>) => setLines((all) => all.map((l) => (l.key === key ? { ...l, ...patch } : l)));
  const addItem = () => {
    const item = priceList.find((p) => p.id === choice);
    if (!item) return;
    setLines((all) => [...all, lineOf({ item: item.id, description: item.description, unit: centsToInput(item.unitCents) })]);
    setChoice("");
  };

  return (
    <Form method="post" preventScrollReset className="space-y-4" aria-label={intent === "create-invoice" ? "New invoice" : "Edit the draft invoice"}>
      <input type="hidden" name="intent" value={intent} />
      {invoiceId ? <input type="hidden" name="invoiceId" value={invoiceId} /> : null}
      {hydrated ? (
        <div className="flex flex-wrap items-end gap-2">
          <div className="min-w-0 flex-1">
            <label htmlFor={`${idPrefix}-price-list`} className={labelClass}>
              Add from the price list
            </label>
            <select id={`${idPrefix}-price-list`} value={choice} onChange={(e) => setChoice(e.target.value)} className={selectClass}>
              <option value="">Choose an item…</option>
              {GROUPS.map((group) => (
                <optgroup key={group} label={group}>
                  {priceList
                    .filter((p) => p.group === group)
                    .map((p) => (
                      <option key={p.id} value={p.id}>
                        {`${p.description}: ${formatUsd(p.unitCents)}`}
                      </option>
                    ))}
                </optgroup>
              ))}
            </select>
          </div>
          <Button type="button" variant="secondary" className="min-h-11 sm:min-h-0" disabled={choice === "" || lines.length >= MAX_INVOICE_LINES} onClick={addItem}>
            <Plus className="size-4" aria-hidden="true" />
            Add item
          </Button>
          <Button type="button" variant="ghost" className="min-h-11 sm:min-h-0" disabled={lines.length >= MAX_INVOICE_LINES} onClick={() => setLines((all) => [...all, lineOf({})])}>
            <Plus className="size-4" aria-hidden="true" />
            Add a free line
          </Button>
        </div>
      ) : null}

      <fieldset className="space-y-3">
        <legend className="font-semibold text-ink">Lines</legend>
        {shown.length === 0 ? <p className="text-sm text-ink-soft">No line yet: add an item from the price list or a free line.</p> : null}
        {shown.map((line, i) => (
          <div key={line.key} className="grid gap-2 rounded-xl border border-line p-3 sm:grid-cols-[1fr_5rem_8rem_auto] sm:items-end">
            <input type="hidden" name="line-item" value={line.item} />
            <div>
              <label htmlFor={`${idPrefix}-desc-${i}`} className={labelClass}>
                Line {i + 1}: description
              </label>
              <Input id={`${idPrefix}-desc-${i}`} name="line-description" maxLength={MAX_LINE_DESCRIPTION} value={line.description} onChange={(e) => change(line.key, { description: e.target.value })} />
            </div>
            <div>
              <label htmlFor={`${idPrefix}-qty-${i}`} className={labelClass}>
                Quantity
              </label>
              <Input id={`${idPrefix}-qty-${i}`} name="line-quantity" type="number" min={1} max={MAX_QUANTITY} step={1} inputMode="numeric" value={line.quantity} onChange={(e) => change(line.key, { quantity: e.target.value })} />
            </div>
            <div>
              <label htmlFor={`${idPrefix}-unit-${i}`} className={labelClass}>
                Unit price ($)
              </label>
              <Input id={`${idPrefix}-unit-${i}`} name="line-unit" inputMode="decimal" placeholder="299.00" autoComplete="off" value={line.unit} onChange={(e) => change(line.key, { unit: e.target.value })} />
            </div>
            {hydrated ? (
              <Button type="button" variant="ghost" className="min-h-11 sm:min-h-0" onClick={() => setLines((all) => all.filter((l) => l.key !== line.key))}>
                <Trash2 className="size-4" aria-hidden="true" />
                <span className="sr-only">Remove line {i + 1}</span>
              </Button>
            ) : null}
          </div>
        ))}
      </fieldset>

      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor={`${idPrefix}-discount`} className={labelClass}>
            Discount ($, optional)
          </label>
          <Input id={`${idPrefix}-discount`} name="discount" inputMode="decimal" placeholder="0.00" autoComplete="off" value={discount} onChange={(e) => setDiscount(e.target.value)} />
        </div>
        <div>
          <label htmlFor={`${idPrefix}-due`} className={labelClass}>
            Due date
          </label>
          <Input id={`${idPrefix}-due`} name="dueOn" type="date" required min={today} defaultValue={start.dueOn} />
        </div>
      </div>
      <div>
        <label htmlFor={`${idPrefix}-notes`} className={labelClass}>
          Notes for the client (optional, printed on the invoice)
        </label>
        <Textarea id={`${idPrefix}-notes`} name="notes" rows={2} maxLength={MAX_INVOICE_NOTES} defaultValue={start.notes ?? ""} />
      </div>
      {hydrated ? (
        <p className="text-sm font-semibold text-ink" aria-live="polite">
          {total === null ? "Total: check the amounts" : `Total: ${formatUsd(total)}`}
        </p>
      ) : null}
      <Refusal result={refused} id={`${idPrefix}-error`} />
      <div className="flex flex-wrap gap-2">
        <Submit intent={intent} name="then" value="save" variant="secondary">
          Save draft
        </Submit>
        <Submit intent={intent} name="then" value="send">
          Save and send to the client
        </Submit>
      </div>
    </Form>
  );
}
