/**
 * Extra header actions a view adds to every panel (e.g. PNG / SVG export)
 * without the panels knowing: ChartFrame renders the provided component
 * with its title and a ref to its own element.
 */
import { createContext, useContext, type ComponentType, type RefObject } from 'react';

export interface PanelActionProps {
  readonly title: string;
  /** the panel's <section> */
  readonly target: RefObject<HTMLElement | null>;
}

export interface PanelActions {
  readonly Component: ComponentType<PanelActionProps>;
  /** what an empty panel says in this view (default: "No data yet — press Start.") */
  readonly emptyText?: string;
}

export const PanelActionsContext = createContext<PanelActions | null>(null);

export function usePanelActions(): PanelActions | null {
  return useContext(PanelActionsContext);
}
