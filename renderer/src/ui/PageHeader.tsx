import type { ReactNode } from 'react';

/** The page's title; focused after navigation so screen readers announce the new page. */
export function PageHeader({ title, children }: { readonly title: string; readonly children?: ReactNode }) {
  return (
    <header className="page-header">
      <h1 id="page-title" tabIndex={-1}>
        {title}
      </h1>
      {children ? <p className="page-header__lead">{children}</p> : null}
    </header>
  );
}
