import { useRouteLoaderData } from "react-router";

/** The route id of the case's layout (routes/admin/case.tsx), whose data every section shares. */
export const CASE_LAYOUT_ID = "routes/admin/case";

/** What a section of the case reads from the case's frame: whose case, its year, the list to return to. */
export type CaseFrame = {
  client: { id: string; code: string; name: string; email: string };
  taxYear: number;
  back: string;
};

/** The case's frame, for a section rendered inside it. */
export function useCaseFrame(): CaseFrame {
  const frame = useRouteLoaderData<CaseFrame>(CASE_LAYOUT_ID);
  if (!frame) throw new Error("A section of the case is rendered outside the case's layout.");
  return frame;
}
