/**
 * The site's free tools as menu entries. Kept apart from each tool's page texts, so the header
 * (on every page) carries only these few lines.
 */
export const residencyTool = {
  path: "/tools/residency-calculator",
  name: "Residency calculator",
  summary: "Resident or nonresident for tax purposes? Check the substantial presence test.",
} as const;
