import type { ReactNode } from "react";

/**
 * What a list or screen shows when it has nothing yet: an icon, a title, what to know or do (`body`), and any
 * actions as children. One markup for every empty list, styled by `.empty-state` in base.css.
 */
export function EmptyState({ icon, title, body, children }: { icon: ReactNode; title: ReactNode; body?: ReactNode; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <span className="empty-icon" aria-hidden="true">
        {icon}
      </span>
      <p className="empty-title">{title}</p>
      {body === undefined ? null : <p>{body}</p>}
      {children}
    </div>
  );
}
